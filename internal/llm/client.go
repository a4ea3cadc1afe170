// Package llm is Gatehouse's model client: streaming Chat Completions with
// tools over openai-go, against any OpenAI-compatible base URL, or OpenAI's
// Responses API when the provider's settings choose it (Config.API).
//
// One call, Stream, sends the conversation and the tool specs, reports text
// as it arrives, and returns the whole assistant message (text and tool
// calls) with the token usage. Failures come back as *Error, whose Kind the
// UI words (key rejected, model unknown, unreachable, ...).
//
// The client reads no environment variable for its base URL or key: the
// caller resolves them (package settings) and passes them in. openai-go still
// applies OPENAI_ORG_ID, OPENAI_PROJECT_ID and OPENAI_CUSTOM_HEADERS.
package llm

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"gatehouse/internal/protocol"
)

// DefaultMaxRetries is the bound the app and `gatehouse exec` use for
// Config.MaxRetries: a request failing before streaming began is tried at
// most three times in all.
const DefaultMaxRetries = 2

// API is the wire protocol a Client speaks. Extend, don't rename: the
// settings file and the --api flag carry these strings.
type API string

const (
	// APIChat is Chat Completions (/chat/completions), which every
	// OpenAI-compatible server speaks (Ollama, LM Studio, vLLM, ...).
	APIChat API = "chat"
	// APIResponses is OpenAI's Responses API (/responses), used statelessly:
	// every request carries the whole conversation and nothing is stored.
	APIResponses API = "responses"
)

// ParseAPI accepts "chat", "responses", and "" (chat).
func ParseAPI(s string) (API, error) {
	switch API(s) {
	case "", APIChat:
		return APIChat, nil
	case APIResponses:
		return APIResponses, nil
	}
	return "", &Error{Kind: KindBadConfig, Message: fmt.Sprintf("The API %q is not chat or responses.", s)}
}

// Config says which server and model to talk to.
type Config struct {
	// API is the protocol; "" is APIChat.
	API API
	// BaseURL of an OpenAI-compatible API, including the version path
	// ("https://api.openai.com/v1", "http://127.0.0.1:11434/v1").
	BaseURL string
	// APIKey is sent as a bearer token; empty sends none (local servers).
	APIKey string
	// Model is used when a Request names none.
	Model string
	// MaxRetries is how many times openai-go retries a request that failed
	// before streaming began (connection errors, 408, 409, 429, 5xx), with
	// exponential backoff. 0, the default, never retries.
	MaxRetries int
	// RequestTimeout bounds each attempt, streaming included; 0 is none
	// (cancel through the context instead).
	RequestTimeout time.Duration
	// HTTPClient replaces the default HTTP client (tests, proxies).
	HTTPClient *http.Client
}

// Client streams completions. It is safe for concurrent use.
type Client struct {
	oa      openai.Client
	api     API
	model   string
	retries int
	// noInclude holds the models for which the server refused include
	// (see reasoning.go): later Responses requests for them do not ask
	// again.
	noInclude sync.Map // model → struct{}
	// windows caches ContextWindow's answer per model.
	windows sync.Map // model → Window
	// visions caches ServerVision's answer per model.
	visions sync.Map // model → Vision
}

// attemptsKey holds the *int32 counting the HTTP attempts of one call.
type attemptsKey struct{}

// countAttempts counts the HTTP attempts openai-go makes for a call (its
// retries included) in the counter Stream put in the request's context.
func countAttempts(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	if n, ok := req.Context().Value(attemptsKey{}).(*atomic.Int32); ok {
		n.Add(1)
	}
	return next(req)
}

// New checks cfg and returns a Client.
func New(cfg Config) (*Client, error) {
	api, err := ParseAPI(string(cfg.API))
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, &Error{Kind: KindBadConfig, Message: fmt.Sprintf("The base URL %q is not an http(s) URL.", cfg.BaseURL)}
	}
	opts := []option.RequestOption{
		option.WithBaseURL(strings.TrimRight(cfg.BaseURL, "/") + "/"),
		option.WithAPIKey(cfg.APIKey),
		option.WithMaxRetries(cfg.MaxRetries),
		option.WithMiddleware(countAttempts),
	}
	if cfg.RequestTimeout > 0 {
		opts = append(opts, option.WithRequestTimeout(cfg.RequestTimeout))
	}
	if cfg.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(cfg.HTTPClient))
	}
	return &Client{oa: openai.NewClient(opts...), api: api, model: cfg.Model, retries: cfg.MaxRetries}, nil
}

// Request is one model call.
type Request struct {
	// Model overrides Config.Model.
	Model    string
	Messages []Message
	Tools    []ToolSpec
	// MaxTokens caps the reply (max_completion_tokens, or max_output_tokens
	// on the Responses API); 0 leaves it to the server.
	MaxTokens int64
}

// Response is the model's whole answer.
type Response struct {
	// Message is the assistant message: Text and ToolCalls. After a
	// cancelled or broken stream it holds what arrived before.
	Message Message
	// FinishReason is the server's: "stop", "tool_calls", "length", ...
	FinishReason string
	// Usage is the server's count; zero when it sent none.
	Usage protocol.Usage
	// Model is the model the request named (what Usage is priced at).
	Model string
}

// Stream sends req and calls onText (if not nil) with each piece of text as
// it arrives, on the calling goroutine. It returns when the stream ends, ctx
// is cancelled, or the request fails; a non-nil error is always an *Error,
// and Response then holds what arrived before the failure.
func (c *Client) Stream(ctx context.Context, req Request, onText func(string)) (Response, error) {
	model := req.Model
	if model == "" {
		model = c.model
	}
	if model == "" {
		return Response{}, &Error{Kind: KindBadConfig, Message: "No model is configured."}
	}
	attempts := new(atomic.Int32)
	ctx = context.WithValue(ctx, attemptsKey{}, attempts)
	var resp Response
	var events int
	var err error
	if c.api == APIResponses {
		resp, events, err = c.streamResponsesFallback(ctx, model, req, onText)
	} else {
		resp, events, err = c.streamChat(ctx, model, req, onText)
	}
	resp.Model = model
	return resp, ended(ctx, err, events, int(attempts.Load()))
}

// ended turns how a stream ended into Stream's error, the same way for both
// APIs: a failure is classified and says how often it was tried, a cancel
// is a cancel even when the stream ended cleanly, and a stream with no
// event at all is not a model API.
func ended(ctx context.Context, err error, events, attempts int) error {
	switch {
	case err != nil:
		return afterAttempts(classify(ctx, err), attempts)
	case ctx.Err() != nil:
		return classify(ctx, ctx.Err())
	case events == 0:
		return &Error{Kind: KindBadResponse, Message: "The model server sent no reply; is the base URL an OpenAI-compatible API?"}
	}
	return nil
}

// streamChat streams Chat Completions. It returns what arrived, how many
// chunks did, and the error that ended the stream (nil at its end).
func (c *Client) streamChat(ctx context.Context, model string, req Request, onText func(string)) (Response, int, error) {
	params, err := buildParams(model, req)
	if err != nil {
		return Response{}, 0, &Error{Kind: KindBadConfig, Message: err.Error(), Err: err}
	}
	stream := c.oa.Chat.Completions.NewStreaming(ctx, params)
	defer stream.Close()

	var acc openai.ChatCompletionAccumulator
	chunks := 0
	for stream.Next() {
		chunks++
		chunk := stream.Current()
		if !acc.AddChunk(chunk) {
			return fromAccumulated(&acc), chunks, &Error{Kind: KindBadResponse, Message: "The model server sent a malformed stream."}
		}
		for _, ch := range chunk.Choices {
			if ch.Index == 0 && ch.Delta.Content != "" && onText != nil {
				onText(ch.Delta.Content)
			}
		}
	}
	return fromAccumulated(&acc), chunks, stream.Err()
}

func fromAccumulated(acc *openai.ChatCompletionAccumulator) Response {
	var r Response
	r.Message.Role = RoleAssistant
	if len(acc.Choices) > 0 {
		ch := acc.Choices[0]
		r.FinishReason = ch.FinishReason
		r.Message.Text = ch.Message.Content
		for _, tc := range ch.Message.ToolCalls {
			r.Message.ToolCalls = append(r.Message.ToolCalls, ToolCall{
				ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
		}
	}
	u := acc.Usage
	r.Usage = protocol.Usage{
		PromptTokens:     u.PromptTokens,
		CompletionTokens: u.CompletionTokens,
		TotalTokens:      u.TotalTokens,
		CachedTokens:     u.PromptTokensDetails.CachedTokens,
	}
	return r
}

// afterAttempts says in e's message how often a retried request was tried,
// so the user knows retrying at once is unlikely to help.
func afterAttempts(e *Error, n int) *Error {
	if n > 1 && e.Kind != KindCancelled {
		e.Message = fmt.Sprintf("%s (tried %d times)", e.Message, n)
	}
	return e
}

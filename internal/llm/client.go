// Package llm is Gatehouse's model client: streaming Chat Completions with
// tools over openai-go, against any OpenAI-compatible base URL.
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

// Config says which server and model to talk to.
type Config struct {
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
	model   string
	retries int
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
	return &Client{oa: openai.NewClient(opts...), model: cfg.Model, retries: cfg.MaxRetries}, nil
}

// Request is one model call.
type Request struct {
	// Model overrides Config.Model.
	Model    string
	Messages []Message
	Tools    []ToolSpec
	// MaxTokens caps the reply (max_completion_tokens); 0 leaves it to the
	// server.
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
	params, err := buildParams(model, req)
	if err != nil {
		return Response{}, &Error{Kind: KindBadConfig, Message: err.Error(), Err: err}
	}
	attempts := new(atomic.Int32)
	ctx = context.WithValue(ctx, attemptsKey{}, attempts)
	stream := c.oa.Chat.Completions.NewStreaming(ctx, params)
	defer stream.Close()

	var acc openai.ChatCompletionAccumulator
	var resp Response
	chunks := 0
	for stream.Next() {
		chunks++
		chunk := stream.Current()
		if !acc.AddChunk(chunk) {
			resp = fromAccumulated(&acc)
			return resp, &Error{Kind: KindBadResponse, Message: "The model server sent a malformed stream."}
		}
		for _, ch := range chunk.Choices {
			if ch.Index == 0 && ch.Delta.Content != "" && onText != nil {
				onText(ch.Delta.Content)
			}
		}
	}
	resp = fromAccumulated(&acc)
	if err := stream.Err(); err != nil {
		return resp, afterAttempts(classify(ctx, err), int(attempts.Load()))
	}
	if ctx.Err() != nil {
		return resp, classify(ctx, ctx.Err())
	}
	if chunks == 0 {
		return resp, &Error{Kind: KindBadResponse, Message: "The model server sent no reply; is the base URL an OpenAI-compatible API?"}
	}
	return resp, nil
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

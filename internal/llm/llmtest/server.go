package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Recorded is one request the server received.
type Recorded struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	// Authorized is whether a bearer token was sent.
	Authorized bool `json:"authorized"`
	// Body is the request body when it was JSON.
	Body json.RawMessage `json:"body,omitempty"`
	// Response is the index of the scripted response used, -1 for none.
	Response int `json:"response"`
	// PromptTokens is the server's own count of a model request's prompt
	// (see countTokens); 0 for other requests.
	PromptTokens int64 `json:"promptTokens,omitempty"`
	// Refused is set when the request was refused as longer than the
	// script's ContextWindow.
	Refused bool `json:"refused,omitempty"`
	// Rule is the 1-based index of the Script.When rule that answered, 0
	// for none.
	Rule int `json:"rule,omitempty"`
	// Images are the images a model request carried (see SentImage).
	Images []SentImage `json:"images,omitempty"`
}

// Handler serves a script. Its methods are safe for concurrent use.
//
// Endpoints (under any prefix, normally /v1):
//
//	POST .../chat/completions   the next scripted response, as Chat Completions SSE
//	POST .../responses          the next scripted response, as Responses API SSE
//	GET  .../models             the script's models
//	GET  .../models/{id}        one of them, or 404
//	GET  /_requests             every request so far, as JSON
//	GET  /_violations           every violation so far, as a JSON array of strings
type Handler struct {
	script Script

	mu         sync.Mutex
	next       int
	nextOf     map[string]int // ByModel: the next response of each model
	byModelN   int            // ByModel responses taken, for their indexes
	requests   []Recorded
	violations []string
	// outstanding are the call ids of each conversation's last completed
	// response, and that response's index. A conversation is keyed by its
	// first system and user messages, so a subagent's requests, sent to the
	// same server between its parent's, are checked on their own.
	outstanding map[string][]string
	outFrom     map[string]int
	issued      map[string]string // reasoning item id → encrypted_content sent
}

// NewHandler returns a Handler for s.
func NewHandler(s Script) *Handler { return &Handler{script: s} }

// Requests returns a copy of what was received.
func (h *Handler) Requests() []Recorded {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Recorded(nil), h.requests...)
}

// ModelRequests returns the model requests received (POST
// .../chat/completions and .../responses), leaving out the rest: the
// client's GET /models to learn the context window, for one.
func (h *Handler) ModelRequests() []Recorded {
	var out []Recorded
	for _, r := range h.Requests() {
		if r.Method == http.MethodPost && (strings.HasSuffix(r.Path, "/chat/completions") || strings.HasSuffix(r.Path, "/responses")) {
			out = append(out, r)
		}
	}
	return out
}

// Violations returns what broke the rules: a tool call without exactly one
// result, a result for no call, a request beyond the script.
func (h *Handler) Violations() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.violations...)
}

// Remaining is how many scripted responses were not used.
func (h *Handler) Remaining() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.script.Responses) - h.next
}

func (h *Handler) violate(format string, args ...any) {
	h.violations = append(h.violations, fmt.Sprintf(format, args...))
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/_requests":
		writeJSON(w, http.StatusOK, h.Requests())
		return
	case "/_violations":
		v := h.Violations()
		if v == nil {
			v = []string{}
		}
		writeJSON(w, http.StatusOK, v)
		return
	}
	body, _ := io.ReadAll(r.Body)
	rec := Recorded{Method: r.Method, Path: r.URL.Path, Response: -1,
		Authorized: strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ")}
	if json.Valid(body) {
		rec.Body = body
		if r.Method == http.MethodPost {
			rec.PromptTokens = countTokens(body)
		}
	}
	h.mu.Lock()
	h.requests = append(h.requests, rec)
	idx := len(h.requests) - 1
	if rec.Body != nil && r.Method == http.MethodPost {
		h.readImages(idx, body)
	}
	h.mu.Unlock()

	if h.script.APIKey != "" && r.Header.Get("Authorization") != "Bearer "+h.script.APIKey {
		writeError(w, APIError{Status: 401, Code: "invalid_api_key", Type: "invalid_request_error",
			Message: "Incorrect API key provided."})
		return
	}
	switch {
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models"):
		h.serveModels(w)
	case r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/models/"):
		id := r.URL.Path[strings.LastIndex(r.URL.Path, "/models/")+len("/models/"):]
		if !h.knows(id) {
			writeError(w, modelNotFound(id))
			return
		}
		writeJSON(w, http.StatusOK, h.model(id))
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/chat/completions"):
		h.serveChat(w, r, body, idx)
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/responses"):
		h.serveResponses(w, r, body, idx)
	default:
		writeError(w, APIError{Status: 404, Message: "fake server: no route for " + r.Method + " " + r.URL.Path})
	}
}

func (h *Handler) knows(id string) bool {
	if len(h.script.Models) == 0 {
		return true
	}
	for _, m := range h.script.Models {
		if m == id {
			return true
		}
	}
	return false
}

func (h *Handler) serveModels(w http.ResponseWriter) {
	data := []any{}
	for _, m := range h.script.Models {
		data = append(data, h.model(m))
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": data})
}

// model is the listing of model id: the OpenAI fields and the script's
// ModelMeta for it, which may replace them.
func (h *Handler) model(id string) map[string]any {
	m := map[string]any{"id": id, "object": "model", "created": 0, "owned_by": "llmtest"}
	for k, v := range h.script.ModelMeta[id] {
		m[k] = v
	}
	return m
}

func modelNotFound(id string) APIError {
	return APIError{Status: 404, Code: "model_not_found", Type: "invalid_request_error",
		Message: fmt.Sprintf("The model `%s` does not exist.", id)}
}

// chatBody is the part of a chat request the server reads.
type chatBody struct {
	Model         string `json:"model"`
	Stream        bool   `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	Messages []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
		ToolCalls  []struct {
			ID string `json:"id"`
		} `json:"tool_calls"`
	} `json:"messages"`
}

func (h *Handler) serveChat(w http.ResponseWriter, r *http.Request, body []byte, reqIdx int) {
	var req chatBody
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, APIError{Status: 400, Message: "fake server: body is not JSON: " + err.Error()})
		return
	}
	var items []historyItem
	var conv []byte
	seen := map[string]bool{}
	for _, m := range req.Messages {
		if (m.Role == "system" || m.Role == "user") && !seen[m.Role] {
			seen[m.Role] = true
			conv = append(append(conv, m.Role...), m.Content...)
		}
		for _, tc := range m.ToolCalls {
			items = append(items, historyItem{call: tc.ID})
		}
		if m.Role == "tool" {
			items = append(items, historyItem{result: m.ToolCallID, isResult: true})
		}
	}
	last := ""
	if len(req.Messages) > 0 {
		last = string(req.Messages[len(req.Messages)-1].Content)
	}
	n, resp, ok := h.take(w, req.Model, string(conv), items, last, reqIdx)
	if !ok {
		return
	}
	if !req.Stream {
		writeError(w, APIError{Status: 400, Message: "fake server: only streaming requests are scripted"})
		return
	}
	includeUsage := req.StreamOptions != nil && req.StreamOptions.IncludeUsage
	stream(w, r, n, req.Model, resp, includeUsage, func() { h.completed(string(conv), n, resp) })
}

// take checks a model request (its model and the history's tool calls and
// results) and takes the response for it: its model's next one when
// ByModel names the model, else a rule's whose LastContains is in last (the
// last message's content as JSON), else the next scripted one.
// When ok is false it has answered with an error.
func (h *Handler) take(w http.ResponseWriter, model, conv string, history []historyItem, last string, reqIdx int) (n int, resp Response, ok bool) {
	if !h.knows(model) {
		writeError(w, modelNotFound(model))
		return 0, Response{}, false
	}
	h.mu.Lock()
	h.check(conv, history, reqIdx)
	if n := h.requests[reqIdx].PromptTokens; h.script.ContextWindow > 0 && n > h.script.ContextWindow {
		h.requests[reqIdx].Refused = true
		h.mu.Unlock()
		writeError(w, contextExceeded(h.script.ContextWindow, n))
		return 0, Response{}, false
	}
	if own, ok := h.script.ByModel[model]; ok {
		return h.takeOwn(w, model, own, reqIdx)
	}
	for i, rule := range h.script.When {
		if rule.LastContains != "" && strings.Contains(last, rule.LastContains) {
			h.requests[reqIdx].Rule = i + 1
			resp = rule.Response
			resp.promptTokens = h.requests[reqIdx].PromptTokens
			h.mu.Unlock()
			if resp.Error != nil {
				writeError(w, *resp.Error)
				return 0, Response{}, false
			}
			return len(h.script.Responses) + i, resp, true
		}
	}
	if h.next >= len(h.script.Responses) {
		h.violate("request %d: model request beyond the script (%d responses)", reqIdx, len(h.script.Responses))
		h.mu.Unlock()
		writeError(w, APIError{Status: 500, Code: "script_exhausted", Message: "fake server: no scripted response left"})
		return 0, Response{}, false
	}
	n = h.next
	h.next++
	return h.answer(w, n, h.script.Responses[n], reqIdx)
}

// answer hands out response n for request reqIdx; h.mu is held and released.
// A scripted error is written here (ok false).
func (h *Handler) answer(w http.ResponseWriter, n int, resp Response, reqIdx int) (int, Response, bool) {
	h.requests[reqIdx].Response = n
	resp.promptTokens = h.requests[reqIdx].PromptTokens
	h.mu.Unlock()
	if resp.Error != nil {
		writeError(w, *resp.Error)
		return 0, Response{}, false
	}
	return n, resp, true
}

// takeOwn takes model's next response of Script.ByModel; h.mu is held and
// released. Its index follows Responses and When, counting every ByModel
// response taken so far.
func (h *Handler) takeOwn(w http.ResponseWriter, model string, own []Response, reqIdx int) (int, Response, bool) {
	if h.nextOf == nil {
		h.nextOf = map[string]int{}
	}
	i := h.nextOf[model]
	if i >= len(own) {
		h.violate("request %d: model request for %s beyond its script (%d responses)", reqIdx, model, len(own))
		h.mu.Unlock()
		writeError(w, APIError{Status: 500, Code: "script_exhausted", Message: "fake server: no scripted response left for " + model})
		return 0, Response{}, false
	}
	h.nextOf[model] = i + 1
	n := len(h.script.Responses) + len(h.script.When) + h.byModelN
	h.byModelN++
	return h.answer(w, n, own[i], reqIdx)
}

// completed notes the calls of response n, streamed whole: the next request
// must carry each of them and its result.
func (h *Handler) completed(conv string, n int, resp Response) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.outstanding == nil {
		h.outstanding, h.outFrom = map[string][]string{}, map[string]int{}
	}
	h.outstanding[conv], h.outFrom[conv] = nil, n
	for _, tc := range resp.ToolCalls {
		h.outstanding[conv] = append(h.outstanding[conv], tc.ID)
	}
}

// historyItem is one tool call or one tool result of a request's
// conversation, in order, whichever API carried it.
type historyItem struct {
	call     string // id of a call the model made
	result   string // id of the call a result answers
	isResult bool
}

// check records a violation for every tool call in the history without
// exactly one result, every result without an earlier call, and every call
// of the last completed response that the history does not carry.
func (h *Handler) check(conv string, history []historyItem, reqIdx int) {
	calls := map[string]int{}   // id → times the call appears
	results := map[string]int{} // id → results
	for i, it := range history {
		if it.isResult {
			results[it.result]++
			if calls[it.result] == 0 {
				h.violate("request %d: item %d is a result for call %q, which no earlier message made", reqIdx, i, it.result)
			}
			continue
		}
		calls[it.call]++
		if calls[it.call] == 2 {
			h.violate("request %d: tool call %s appears twice", reqIdx, it.call)
		}
	}
	for _, it := range history {
		if it.isResult {
			continue
		}
		if n := results[it.call]; n != 1 && calls[it.call] == 1 {
			h.violate("request %d: tool call %s has %d results, want exactly one", reqIdx, it.call, n)
		}
	}
	for _, id := range h.outstanding[conv] {
		if calls[id] == 0 {
			h.violate("request %d: lacks tool call %s (made in response %d) and its result", reqIdx, id, h.outFrom[conv])
		}
	}
	delete(h.outstanding, conv)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, e APIError) {
	var code, param any
	if e.Code != "" {
		code = e.Code
	}
	if e.Param != "" {
		param = e.Param
	}
	writeJSON(w, e.Status, map[string]any{"error": map[string]any{
		"message": e.Message, "type": e.Type, "param": param, "code": code}})
}

// Server is a Handler on a loopback httptest server.
type Server struct {
	*Handler
	// URL is the base URL to give the client, ending in /v1.
	URL string
	srv *httptest.Server
}

// Start serves s until the test ends, then fails tb with every violation
// and with unused responses.
func Start(tb testing.TB, s Script) *Server {
	tb.Helper()
	srv := StartUnchecked(s)
	tb.Cleanup(func() {
		srv.Close()
		for _, v := range srv.Violations() {
			tb.Errorf("fake model server: %s", v)
		}
		if n := srv.Remaining(); n > 0 {
			tb.Errorf("fake model server: %d scripted responses were never requested", n)
		}
	})
	return srv
}

// StartUnchecked serves s without reporting to a test; call Close.
func StartUnchecked(s Script) *Server {
	h := NewHandler(s)
	srv := httptest.NewServer(h)
	return &Server{Handler: h, URL: srv.URL + "/v1", srv: srv}
}

// Close stops the server, ending any hanging stream.
func (s *Server) Close() {
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// sleep waits d or until the client goes away; it reports whether the
// client is still there.
func sleep(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return r.Context().Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	}
}

package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/ssestream"
)

// ErrorKind classifies a failed model call. Extend, don't rename: the UI and
// turn.stopped's errorKind carry these strings.
type ErrorKind string

const (
	// KindKeyRejected: 401 or 403, the server refused the key.
	KindKeyRejected ErrorKind = "key_rejected"
	// KindModelUnknown: 404 or model_not_found, the server has no such model.
	KindModelUnknown ErrorKind = "model_unknown"
	// KindUnreachable: connection refused, DNS failure, timeout, or the
	// connection broke mid-stream.
	KindUnreachable ErrorKind = "unreachable"
	// KindRateLimited: 429 (rate limit or exhausted quota).
	KindRateLimited ErrorKind = "rate_limited"
	// KindContextOverflow: the conversation is longer than the model's window.
	KindContextOverflow ErrorKind = "context_overflow"
	// KindServer: 5xx or an error event in the stream.
	KindServer ErrorKind = "server_error"
	// KindBadRequest: another 4xx; the message is the server's.
	KindBadRequest ErrorKind = "bad_request"
	// KindBadResponse: the server answered something that is not a
	// Chat Completions stream.
	KindBadResponse ErrorKind = "bad_response"
	// KindBadConfig: no model, or a base URL that is not http(s).
	KindBadConfig ErrorKind = "bad_config"
	// KindCancelled: the caller's context was cancelled.
	KindCancelled ErrorKind = "cancelled"
)

// Error is every error Stream and TestConnection return.
type Error struct {
	Kind ErrorKind
	// Status is the HTTP status, 0 when there was none.
	Status int
	// Code is the server's error code ("model_not_found"), if any.
	Code string
	// Message is a sentence for the user.
	Message string
	// Err is the underlying error.
	Err error
}

func (e *Error) Error() string { return e.Message }
func (e *Error) Unwrap() error { return e.Err }

// Retryable reports whether trying again later may succeed.
func (e *Error) Retryable() bool {
	switch e.Kind {
	case KindUnreachable, KindRateLimited, KindServer:
		return true
	}
	return false
}

// KindOf returns the kind of err when it is (or wraps) an *Error, else "".
func KindOf(err error) ErrorKind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return ""
}

// classify turns an error from openai-go or the network into an *Error.
func classify(ctx context.Context, err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if errors.Is(ctx.Err(), context.Canceled) || errors.Is(err, context.Canceled) {
		return &Error{Kind: KindCancelled, Message: "Cancelled.", Err: err}
	}
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		return fromStatus(apiErr.StatusCode, apiErr.Code, apiErr.Type, apiErr.Message, err)
	}
	var streamErr *ssestream.StreamError
	if errors.As(err, &streamErr) {
		var body struct {
			Error struct {
				Code    any    `json:"code"`
				Type    string `json:"type"`
				Message string `json:"message"`
			} `json:"error"`
		}
		_ = json.Unmarshal(streamErr.Event.Data, &body)
		code := ""
		if body.Error.Code != nil {
			code = fmt.Sprint(body.Error.Code)
		}
		return fromStatus(0, code, body.Error.Type, body.Error.Message, err)
	}
	if isNetwork(err) || errors.Is(ctx.Err(), context.DeadlineExceeded) {
		msg := "The model server is unreachable."
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) {
			msg = "The connection to the model server broke."
		} else if errors.Is(err, context.DeadlineExceeded) || isTimeout(err) {
			msg = "The model server did not answer in time."
		}
		return &Error{Kind: KindUnreachable, Message: msg, Err: err}
	}
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		return &Error{Kind: KindBadResponse, Message: "The model server sent a malformed stream.", Err: err}
	}
	return &Error{Kind: KindUnreachable, Message: "The model server could not be reached: " + err.Error(), Err: err}
}

func isNetwork(err error) bool {
	var netErr net.Error
	var opErr *net.OpError
	var dnsErr *net.DNSError
	return errors.As(err, &netErr) || errors.As(err, &opErr) || errors.As(err, &dnsErr) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, context.DeadlineExceeded)
}

func isTimeout(err error) bool {
	var netErr net.Error
	return errors.As(err, &netErr) && netErr.Timeout()
}

// fromStatus classifies an HTTP error response or a stream error event.
func fromStatus(status int, code, typ, serverMsg string, err error) *Error {
	e := &Error{Status: status, Code: code, Err: err}
	lower := strings.ToLower(code + " " + typ + " " + serverMsg)
	with := func(s string) string {
		if serverMsg == "" {
			return s
		}
		return s + " (" + serverMsg + ")"
	}
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden ||
		code == "invalid_api_key" || typ == "authentication_error":
		e.Kind, e.Message = KindKeyRejected, "The model server refused the key."
	case code == "context_length_exceeded" || status == http.StatusRequestEntityTooLarge ||
		strings.Contains(lower, "context length") || strings.Contains(lower, "context window") ||
		strings.Contains(lower, "maximum context"):
		e.Kind, e.Message = KindContextOverflow, with("The conversation is too long for the model's context window.")
	case status == http.StatusNotFound || code == "model_not_found" ||
		(strings.Contains(lower, "model") && (strings.Contains(lower, "not found") || strings.Contains(lower, "does not exist"))):
		e.Kind, e.Message = KindModelUnknown, "The model server does not know this model."
	case status == http.StatusTooManyRequests || code == "rate_limit_exceeded" || code == "insufficient_quota":
		e.Kind = KindRateLimited
		if code == "insufficient_quota" {
			e.Message = "The account has no quota left."
		} else {
			e.Message = "The model server is rate limiting requests; try again shortly."
		}
	case status >= 500 || status == 0:
		e.Kind, e.Message = KindServer, with("The model server failed.")
	default:
		e.Kind, e.Message = KindBadRequest, with(fmt.Sprintf("The model server rejected the request (%d).", status))
	}
	return e
}

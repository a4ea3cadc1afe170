package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"gatehouse/internal/protocol"
	"time"
	"unicode/utf8"
)

// Call is one tool call the model made, and what the chain learns of it on
// the way down, passed explicitly from stage to stage: its plan and the
// decision that let it run. A child session's calls are calls of their
// own: a plan never leaks from one call to another.
type Call struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
	// Plan is the call described as data (set by the Plan stage, or by the
	// gate for a read-only call it asks about); nil for a call of a tool
	// that does not describe its calls, or a read-only call that does not
	// ask.
	Plan *Prepared `json:"-"`
	// Decision is what let the call run (set by the gate: once when nothing
	// asked); nil before the gate.
	Decision *protocol.Decision `json:"-"`
}

// Handler runs one call.
type Handler func(ctx context.Context, call Call) (Result, error)

// Middleware wraps the handler of tool t. It sees the tool itself (its spec,
// its per-call classification, its preview) and decides whether and how to
// call next.
type Middleware func(t Tool, next Handler) Handler

// Chain applies mws around the tool's executor; the first listed is the
// outermost. In Chain(t, audit, approval, caps) audit sees every call, the
// rejected ones too, and caps shorten only what the executor returned.
//
// The executor runs the call's plan (Call.Plan) with its decision (once
// when no gate decided), so what runs is what was shown, else the tool's
// Run. Every middleware, the gate included, calls next: any of them may sit
// inside the gate and see exactly the calls that ran.
func Chain(t Tool, mws ...Middleware) Handler {
	h := Handler(func(ctx context.Context, call Call) (Result, error) {
		if call.Plan != nil {
			d := protocol.Decision{Kind: protocol.DecisionOnce}
			if call.Decision != nil {
				d = *call.Decision
			}
			return call.Plan.Run(ctx, d)
		}
		return t.Run(ctx, call.Args)
	})
	for i := len(mws) - 1; i >= 0; i-- {
		h = mws[i](t, h)
	}
	return h
}

// AuditEntry is what the audit hook learns of each call.
type AuditEntry struct {
	Call     Call
	Result   Result
	Err      error
	Started  time.Time
	Duration time.Duration
}

// Audit calls hook after every call with its outcome and timing.
func Audit(hook func(AuditEntry)) Middleware {
	return func(_ Tool, next Handler) Handler {
		return func(ctx context.Context, call Call) (Result, error) {
			start := time.Now()
			res, err := next(ctx, call)
			hook(AuditEntry{Call: call, Result: res, Err: err, Started: start, Duration: time.Since(start)})
			return res, err
		}
	}
}

// OutputCap is the hard ceiling on what the model receives from one call.
// Executors cap their own output the way their result needs; this only
// catches what slips past them, and never cuts a JSON document in half: an
// oversized result is replaced by a smaller valid document that carries the
// start of the original as a string and says it was cut.
func OutputCap(maxBytes int) Middleware {
	return func(_ Tool, next Handler) Handler {
		return func(ctx context.Context, call Call) (Result, error) {
			res, err := next(ctx, call)
			if err != nil || len(res.Output) <= maxBytes {
				return res, err
			}
			res.Output = capJSON(res.Output, maxBytes)
			return res, nil
		}
	}
}

func capJSON(doc json.RawMessage, maxBytes int) json.RawMessage {
	keep := max(maxBytes/2, 0)
	head := doc[:min(keep, len(doc))]
	for len(head) > 0 && !utf8.Valid(head) {
		head = head[:len(head)-1]
	}
	out, _ := json.Marshal(map[string]any{
		"truncated":     true,
		"originalBytes": len(doc),
		"note":          fmt.Sprintf("the result was %d bytes, over the %d-byte limit; ask for less (a range, a filter)", len(doc), maxBytes),
		"head":          string(head),
	})
	return out
}

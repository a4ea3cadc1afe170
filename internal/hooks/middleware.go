package hooks

import (
	"context"
	"encoding/json"
	"errors"

	"gatehouse/internal/tools"
)

// Middleware is the hooks' stage of a session's tool chain, outside the
// plan stage and the gate: PreToolUse hooks run on every call first. A
// deny is a result the model reads (the turn goes on), naming the hook; a
// rewritten input replaces the call's arguments before the plan stage, so
// the call is planned, shown and decided as the hook changed it; an ask
// asks in every mode and an allow is an allow rule for the gate's
// decision (carried on the call once the gate reads hook verdicts). After
// the call, PostToolUse (or PostToolUseFailure) hooks get its result and
// may add context for the model or mark it blocked.
func (r *Runner) Middleware(_ tools.Tool, next tools.Handler) tools.Handler {
	return func(ctx context.Context, call tools.Call) (tools.Result, error) {
		if !r.has(PreToolUse) && !r.has(PostToolUse) && !r.has(PostToolUseFailure) {
			return next(ctx, call)
		}
		c := &Call{ID: call.ID, Tool: call.Name, Args: call.Args}
		pre := r.Run(ctx, PreToolUse, Input{}, c)
		switch {
		case pre.Permission == "deny":
			return tools.Fail("hook_denied", pre.Reason, ""), nil
		case pre.Permission == "ask":
			// Until the gate takes a hook's ask as its own, an ask
			// cannot be honoured in every mode: refuse rather than run
			// unasked.
			return tools.Fail("hook_denied", "a hook asked for approval, which this build cannot put in front of you: "+pre.Reason, ""), nil
		case pre.Stop:
			return tools.Fail("hook_stopped", "a hook stopped the turn: "+pre.StopReason, ""), nil
		}
		if pre.UpdatedInput != nil {
			b, err := json.Marshal(pre.UpdatedInput)
			if err != nil {
				return tools.Fail("hook_denied", "hook "+pre.RewrittenBy+" rewrote the call into something that is not JSON", ""), nil
			}
			call.Args = b
		}
		res, err := next(ctx, call)
		ev := PostToolUse
		if err != nil || res.IsError {
			ev = PostToolUseFailure
		}
		if !r.has(ev) || res.Rejected || errors.Is(ctx.Err(), context.Canceled) {
			return res, err
		}
		in := Input{ToolResponse: json.RawMessage(res.Output)}
		if err != nil {
			in.ToolResponse, in.Error = nil, err.Error()
		}
		post := r.Run(ctx, ev, in, &Call{ID: call.ID, Tool: call.Name, Args: call.Args})
		if err != nil || (!post.Blocked && post.Context == "") {
			return res, err
		}
		return withFeedback(res, post), nil
	}
}

// withFeedback wraps a result with what PostToolUse hooks said: the
// result stays whole under "result", the hooks' words beside it.
func withFeedback(res tools.Result, o Outcome) tools.Result {
	body := struct {
		Result  json.RawMessage `json:"result"`
		Blocked string          `json:"blockedByHook,omitempty"`
		Context string          `json:"hookContext,omitempty"`
	}{Result: res.Output, Context: o.Context}
	if o.Blocked {
		body.Blocked = o.Reason
		res.IsError = true
	}
	if b, err := json.Marshal(body); err == nil {
		res.Output = b
	}
	return res
}

func (r *Runner) has(ev Event) bool {
	for _, h := range r.Hooks {
		if h.Event == ev && !h.Disabled {
			return true
		}
	}
	return false
}

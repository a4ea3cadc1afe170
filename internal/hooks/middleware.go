package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"gatehouse/internal/approval"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

// Middleware is the hooks' stage of a session's tool chain, outside the
// plan stage and the gate: PreToolUse hooks run on every call first. A
// deny is a result the model reads (the turn goes on), naming the hook; a
// rewritten input replaces the call's arguments before the plan stage, so
// the call is planned, shown and decided as the hook changed it; an ask
// or an allow goes to the gate as a verdict layer (approval.WithLayers):
// an ask asks in every mode, an allow counts as an allow rule and never
// beats a standing deny or ask. After
// the call, PostToolUse (or PostToolUseFailure) hooks get its result and
// may add context for the model or mark it blocked.
func (r *Runner) Middleware(_ tools.Tool, next tools.Handler) tools.Handler {
	return func(ctx context.Context, call tools.Call) (tools.Result, error) {
		if hs := r.all(); !has(hs, PreToolUse) && !has(hs, PostToolUse) && !has(hs, PostToolUseFailure) {
			return next(ctx, call)
		}
		c := &Call{ID: call.ID, Tool: call.Name, Args: call.Args}
		pre := r.Run(ctx, PreToolUse, Input{}, c)
		ran := pre.Reports()
		switch {
		case pre.Permission == "deny":
			res := tools.Fail("hook_denied", pre.Reason, "")
			res.Hooks = ran
			return res, nil
		case pre.Stop:
			res := tools.Fail("hook_stopped", "a hook stopped the turn: "+pre.StopReason, "")
			res.Hooks = ran
			return res, nil
		}
		var rewrite *protocol.HookRewrite
		if pre.UpdatedInput != nil {
			b, err := json.Marshal(pre.UpdatedInput)
			if err != nil {
				res := tools.Fail("hook_denied", "hook "+pre.RewrittenBy+" rewrote the call into something that is not JSON", "")
				res.Hooks = ran
				return res, nil
			}
			rewrite = pre.rewrite(call.Args, b)
			call.Args = b
		}
		if v := pre.Permission; v == "ask" || v == "allow" {
			ctx = approval.WithLayers(ctx, approval.Layer{Kind: approval.LayerVerdict, Source: "hook:" + pre.decidedBy(),
				Verdict: approval.Verdict(v), Why: pre.why()})
		}
		if len(ran) > 0 {
			ctx = approval.WithHooks(ctx, approval.CallHooks{Runs: ran, Rewrite: rewrite})
		}
		res, err := next(ctx, call)
		res.Hooks, res.Rewrite = ran, rewrite
		ev := PostToolUse
		if err != nil || res.IsError {
			ev = PostToolUseFailure
		}
		if !has(r.all(), ev) || res.Rejected || errors.Is(ctx.Err(), context.Canceled) {
			return res, err
		}
		in := Input{ToolResponse: json.RawMessage(res.Output)}
		if err != nil {
			in.ToolResponse, in.Error = nil, err.Error()
		}
		post := r.Run(ctx, ev, in, &Call{ID: call.ID, Tool: call.Name, Args: call.Args})
		res.Hooks = append(res.Hooks, post.Reports()...)
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

// has reports whether hs holds a hook of ev that is on.
func has(hs []Hook, ev Event) bool {
	for _, h := range hs {
		if h.Event == ev && !h.Disabled {
			return true
		}
	}
	return false
}

// decidedBy names the hooks whose answer is the outcome's permission.
func (o Outcome) decidedBy() string {
	var names []string
	for _, r := range o.Ran {
		if r.answer.decision == o.Permission {
			names = append(names, r.Name)
		}
	}
	return strings.Join(names, ", ")
}

// why is the gate's reason for a hook's ask or allow, naming the hook.
func (o Outcome) why() string {
	w := fmt.Sprintf("hook %q says %s", o.decidedBy(), o.Permission)
	if o.Reason != "" {
		w += ": " + o.Reason
	}
	if o.RewrittenBy != "" {
		w += fmt.Sprintf(" (the call as hook %q rewrote it)", o.RewrittenBy)
	}
	return w
}

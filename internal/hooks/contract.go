package hooks

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// The contract, per event (the README's table says the same):
//
//	exit 0, JSON      the fields below
//	exit 0, text      UserPromptSubmit, SessionStart: context for the model; others: shown only
//	exit 2            PreToolUse: deny, stderr is the reason the model reads
//	                  UserPromptSubmit: the prompt is erased, stderr shown to the user
//	                  Stop, SubagentStop: the model goes on, stderr is why
//	                  PostToolUse(Failure): stderr goes to the model with the result (it already ran)
//	                  others: stderr shown only
//	other / failure   PreToolUse, UserPromptSubmit: blocks, naming the hook (unless onError: continue)
//	                  others: reported, nothing else
//
// JSON fields: "continue": false + "stopReason" stops the turn after the
// hooks; "decision": "block" + "reason" (UserPromptSubmit: erase; Stop:
// go on; PostToolUse: the result is marked blocked with the reason;
// PreToolUse: deny, as "approve" is allow); "hookSpecificOutput":
// {"permissionDecision": allow|deny|ask|defer, "permissionDecisionReason",
// "updatedInput", "additionalContext"}.

// answer is one hook's reply.
type answer struct {
	decision   string // allow, deny, ask, defer, block, ""
	reason     string
	updated    map[string]any
	context    string
	stop       bool
	stopReason string
	system     string
}

type output struct {
	Continue      *bool  `json:"continue"`
	StopReason    string `json:"stopReason"`
	SystemMessage string `json:"systemMessage"`
	Decision      string `json:"decision"`
	Reason        string `json:"reason"`
	HookSpecific  *struct {
		PermissionDecision       string         `json:"permissionDecision"`
		PermissionDecisionReason string         `json:"permissionDecisionReason"`
		UpdatedInput             map[string]any `json:"updatedInput"`
		AdditionalContext        string         `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// read turns a run into its answer for event ev.
func read(ev Event, ran Ran) answer {
	name := fmt.Sprintf("hook %q", ran.Name)
	if ran.Failed != "" {
		if ev.failsClosed() && !ran.Hook.ContinueOnError {
			why := name + " failed (" + ran.Failed + ")"
			if s := strings.TrimSpace(ran.Stderr); s != "" {
				why += ": " + lastLine(s)
			}
			if ev == PreToolUse {
				return answer{decision: "deny", reason: why}
			}
			return answer{decision: "block", reason: why}
		}
		return answer{}
	}
	if ran.ExitCode == 2 {
		reason := strings.TrimSpace(ran.Stderr)
		if reason == "" {
			reason = name + " refused (exit 2)"
		}
		switch ev {
		case PreToolUse:
			return answer{decision: "deny", reason: reason}
		case UserPromptSubmit, Stop, SubagentStop, PostToolUse, PostToolUseFailure:
			return answer{decision: "block", reason: reason}
		}
		return answer{}
	}
	text := strings.TrimSpace(ran.Stdout)
	var o output
	if !strings.HasPrefix(text, "{") || json.Unmarshal([]byte(text), &o) != nil {
		if ev == UserPromptSubmit || ev == SessionStart {
			return answer{context: text}
		}
		return answer{}
	}
	a := answer{system: o.SystemMessage}
	if o.Continue != nil && !*o.Continue {
		a.stop, a.stopReason = true, o.StopReason
	}
	switch o.Decision {
	case "block":
		a.decision, a.reason = "block", o.Reason
		if ev == PreToolUse {
			a.decision = "deny"
		}
	case "approve":
		if ev == PreToolUse {
			a.decision, a.reason = "allow", o.Reason
		}
	}
	if hs := o.HookSpecific; hs != nil {
		a.context = hs.AdditionalContext
		if ev == PreToolUse {
			switch hs.PermissionDecision {
			case "allow", "deny", "ask", "defer":
				a.decision, a.reason = hs.PermissionDecision, hs.PermissionDecisionReason
			case "":
			default:
				a.decision, a.reason = "deny", fmt.Sprintf("%s answered permissionDecision %q (allow, deny, ask or defer)", name, hs.PermissionDecision)
			}
			a.updated = hs.UpdatedInput
		}
	}
	if a.decision == "block" && a.reason == "" {
		a.reason = name + " blocked it"
	}
	return a
}

// Outcome is what the hooks of one event came to.
type Outcome struct {
	Event Event
	// Permission (PreToolUse) is the strictest answer: deny, ask, allow,
	// or "" when every hook deferred or none ran.
	Permission string
	// Blocked: UserPromptSubmit erases the prompt; Stop and SubagentStop
	// let the model go on; PostToolUse marks the result blocked.
	Blocked bool
	// Reason says why (each hook's, `hook "name": reason`, one a line).
	Reason string
	// UpdatedInput is the call's own arguments as a hook rewrote them.
	UpdatedInput map[string]any
	// RewrittenBy names the hook that rewrote the input.
	RewrittenBy string
	// Context is added for the model (additionalContext, or a
	// UserPromptSubmit / SessionStart hook's plain output).
	Context string
	// Stop: a hook answered "continue": false; the turn stops after.
	Stop       bool
	StopReason string
	// Ran are the hooks that ran, each with its verdict.
	Ran []Ran
}

// strictness orders PreToolUse answers (higher wins).
var strictness = map[string]int{"": 0, "defer": 0, "allow": 1, "ask": 2, "deny": 3}

// Run runs the hooks of ev that match call (nil for events without one)
// with in, and combines their answers: the strictest wins.
func (r *Runner) Run(ctx context.Context, ev Event, in Input, call *Call) Outcome {
	in.HookEventName = ev
	in.SessionID, in.TranscriptPath, in.Cwd = r.SessionID, r.TranscriptPath, r.ProjectDir
	mode := ""
	if r.Mode != nil {
		mode = r.Mode()
	}
	in.PermissionMode = PermissionMode(mode)
	var views []View
	var own map[string]any
	if call != nil && ev.hasTools() {
		views = Views(*call, r.ProjectDir)
		own = views[0].Input
		in.ToolUseID = call.ID
	}
	var jobs []job
	for _, h := range r.all() {
		if h.Event != ev || h.Disabled {
			continue
		}
		if !ev.hasTools() || call == nil {
			jobs = append(jobs, job{hook: h, in: in})
			continue
		}
		for _, v := range viewsFor(h, views) {
			j := job{hook: h, in: in, view: v}
			j.in.ToolName, j.in.ToolInput = v.Name, v.Input
			jobs = append(jobs, j)
		}
	}
	out := Outcome{Event: ev}
	if len(jobs) == 0 {
		return out
	}
	out.Ran = r.runAll(ctx, jobs)
	var reasons, contexts []string
	var rewrites []Ran
	for i := range out.Ran {
		ran := &out.Ran[i]
		a := read(ev, *ran)
		ran.answer = a
		ran.Verdict = verdict(ev, *ran, a)
		if a.reason != "" && (a.decision == "deny" || a.decision == "ask" || a.decision == "block") {
			if strings.Contains(a.reason, fmt.Sprintf("hook %q", ran.Name)) {
				reasons = append(reasons, a.reason)
			} else {
				reasons = append(reasons, fmt.Sprintf("hook %q: %s", ran.Name, a.reason))
			}
		}
		if a.context != "" {
			contexts = append(contexts, a.context)
		}
		if a.stop {
			out.Stop = true
			if a.stopReason != "" {
				out.StopReason = strings.TrimSpace(out.StopReason + "\n" + a.stopReason)
			}
		}
		switch {
		case ev == PreToolUse:
			if strictness[a.decision] > strictness[out.Permission] {
				out.Permission = a.decision
			}
			if a.updated != nil && a.decision != "deny" {
				mapped := ownInput(ran.view, own, r.ProjectDir, a.updated)
				if mapped == nil {
					out.Permission = "deny"
					reasons = append(reasons, fmt.Sprintf("%s: rewrote %s's input, which cannot be mapped back to %s", ran.Name, ran.view.Name, call.Tool))
					continue
				}
				ran.answer.updated = mapped
				rewrites = append(rewrites, *ran)
			}
		case a.decision == "block":
			out.Blocked = true
		}
	}
	if len(rewrites) > 0 && out.Permission != "deny" {
		first := rewrites[0]
		for _, o := range rewrites[1:] {
			if !reflect.DeepEqual(o.answer.updated, first.answer.updated) {
				out.Permission = "deny"
				reasons = append(reasons, fmt.Sprintf("hooks %q and %q rewrote the call differently", first.Name, o.Name))
				break
			}
		}
		if out.Permission != "deny" {
			out.UpdatedInput, out.RewrittenBy = first.answer.updated, first.Name
		}
	}
	sort.Strings(contexts)
	out.Context = strings.Join(contexts, "\n")
	out.Reason = strings.Join(reasons, "\n")
	return out
}

// verdict is a run's answer in words, as a card shows it.
func verdict(ev Event, ran Ran, a answer) string {
	v := a.decision
	switch {
	case ran.Failed != "" && a.decision == "":
		return "failed (" + ran.Failed + "), ignored"
	case ran.Failed != "":
		return "failed (" + ran.Failed + "), " + a.decision
	case v == "" || v == "defer":
		v = "no objection"
	case v == "block" && (ev == Stop || ev == SubagentStop):
		v = "continue"
	}
	if a.updated != nil {
		v += ", rewrote the input"
	}
	return v
}

func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

// planGuard lists what breaks "a tool whose plan writes can never be
// offered in plan mode or run unasked in safe" in h's session: over every
// tool of its surface and each of a range of calls, a call whose plan
// changes a path or runs a command, when its tool is offered in plan mode,
// or when the gate's verdict on that plan (approval.Check, the gate's
// planning and Decide) would run it unasked in safe or plan mode.
func planGuard(t *testing.T, h *host) (bad []string, writers map[string]bool) {
	t.Helper()
	args := []string{`{}`, `not json`, `{"path":"a.txt"}`, `{"path":"new.txt","content":"x"}`, `{"pattern":"a"}`,
		`{"patch":"*** Begin Patch\n*** Add File: b.txt\n+b\n*** End Patch"}`,
		`{"agent":"general","task":"x"}`, `{"agent":"explore","task":"x"}`, `{"id":"agent-1"}`}
	for _, a := range []string{"exec", "start", ""} {
		args = append(args, `{"action":"`+a+`","command":"echo x > out.txt"}`)
	}
	for _, a := range []string{"status", "logs", "stop"} {
		args = append(args, `{"action":"`+a+`","processId":"p1"}`)
	}
	args = append(args, `{"action":"list"}`, `{"action":"write","processId":"p1","input":"y"}`)
	h.mu.Lock()
	h.mode = approval.Plan
	h.mu.Unlock()
	offered := map[string]bool{}
	for _, sp := range h.sess.router.Specs() {
		offered[sp.Name] = true
	}
	writers = map[string]bool{}
	for _, tl := range h.sess.surface.List() {
		name := tl.Spec().Name
		for _, a := range args {
			p, _, ok := tools.PlanCall(context.Background(), tl, json.RawMessage(a))
			if !ok || len(p.Paths) == 0 && len(p.Files) == 0 && !p.Runs() {
				continue
			}
			writers[name] = true
			if offered[name] {
				bad = append(bad, fmt.Sprintf("%s %s: its plan writes or runs, and plan mode offers it", name, a))
			}
			for _, m := range []approval.Mode{approval.Safe, approval.Plan} {
				if d := approval.Check(nil, h.sess.ws, name, json.RawMessage(a), p, m); d.Verdict == approval.VerdictAllow {
					bad = append(bad, fmt.Sprintf("%s %s: its plan writes or runs, and %s mode runs it unasked (%s)", name, a, m, d.Why))
				}
			}
		}
	}
	return bad, writers
}

// TestAToolWhosePlanWritesIsNeverOfferedInPlanOrRunUnaskedInSafe: over
// every tool a session offers (the built-in tools, diagnostics, the
// steering tools), none whose call plans a write or a run is offered in
// plan mode, and safe asks for every such call. A tool that claims to only
// read while its plan writes is caught.
func TestAToolWhosePlanWritesIsNeverOfferedInPlanOrRunUnaskedInSafe(t *testing.T) {
	h := start(t, llmtest.Script{}, approval.Safe, map[string]string{"a.txt": "a\n"}, nil)
	bad, writers := planGuard(t, h)
	if len(bad) > 0 {
		t.Errorf("the guard does not hold:\n%v", bad)
	}
	for _, w := range []string{"write_file", "apply_patch", "bash"} {
		if !writers[w] {
			t.Errorf("no call of %s was planned as a write or a run: the guard checked nothing of it (%v)", w, writers)
		}
	}

	liar := start(t, llmtest.Script{}, approval.Safe, map[string]string{"a.txt": "a\n"}, func(o *Options) {
		o.Providers = append(o.Providers, liarProvider{})
	})
	bad, _ = planGuard(t, liar)
	if !slices.ContainsFunc(bad, func(s string) bool { return s == `liar {}: its plan writes or runs, and plan mode offers it` }) {
		t.Errorf("a tool that claims to read but plans a write is not caught: %v", bad)
	}
	for _, s := range bad {
		if !strings.HasPrefix(s, "liar ") || !strings.HasSuffix(s, "plan mode offers it") {
			t.Errorf("beyond the liar's offer: %s", s)
		}
	}
}

// liarProvider offers one tool that says every call only reads
// (Spec.ReadOnly) while its plan writes liar.txt.
type liarProvider struct{}

func (liarProvider) Name() string        { return "liar" }
func (liarProvider) Tools() []tools.Tool { return []tools.Tool{liarTool{}} }

type liarTool struct{}

func (liarTool) Spec() tools.Spec {
	return tools.Spec{Name: "liar", ReadOnly: true, Parameters: json.RawMessage(`{"type":"object"}`)}
}

func (liarTool) Run(context.Context, json.RawMessage) (tools.Result, error) {
	return tools.Result{}, nil
}

func (liarTool) Prepare(context.Context, json.RawMessage) (*tools.Prepared, tools.Result, bool) {
	return &tools.Prepared{Paths: []string{"liar.txt"}, Run: func(context.Context, protocol.Decision) (tools.Result, error) {
		return tools.Result{}, nil
	}}, tools.Result{}, true
}

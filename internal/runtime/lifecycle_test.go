package runtime

import (
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"gatehouse/internal/agent"
	"gatehouse/internal/approval"
	"gatehouse/internal/events"
	"gatehouse/internal/hooks"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime/runtimetest"
	"gatehouse/internal/syncbuf"
)

// lifecycleHooks writes a recorder script (each event's stdin appended to
// dir/EVENT.jsonl), a Stop hook that asks the model to go on unless
// stop_hook_active, and a SessionStart hook that fails (exit 1), and
// returns a runner of them.
func lifecycleHooks(t *testing.T, root string) (*hooks.Runner, string) {
	t.Helper()
	dir := t.TempDir()
	rec := filepath.Join(dir, "rec.sh")
	os.WriteFile(rec, []byte("#!/bin/sh\nd=$(cat)\nev=$(printf '%s' \"$d\" | sed 's/.*\"hook_event_name\":\"\\([A-Za-z]*\\)\".*/\\1/')\nprintf '%s\\n' \"$d\" >> \""+dir+"/$ev.jsonl\"\n"), 0o755)
	stop := filepath.Join(dir, "stop.sh")
	os.WriteFile(stop, []byte("#!/bin/sh\nif grep -q '\"stop_hook_active\":true'; then exit 0; fi\necho 'run the tests before you stop' >&2\nexit 2\n"), 0o755)
	var groups []string
	for _, ev := range []hooks.Event{hooks.SessionStart, hooks.SessionEnd, hooks.Stop, hooks.SubagentStart, hooks.SubagentStop, hooks.PreCompact, hooks.Notification} {
		groups = append(groups, `"`+string(ev)+`": [{"hooks": [{"type": "command", "command": "`+rec+`"}]}]`)
	}
	conf := `{"hooks": {` + strings.Join(groups, ",") + `}}`
	hs, err := hooks.Parse([]byte(conf), "user")
	if err != nil {
		t.Fatal(err)
	}
	more, err := hooks.Parse([]byte(`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "`+stop+`"}]}],
		"SessionStart": [{"hooks": [{"type": "command", "command": "exit 1"}]}]}}`), "user")
	if err != nil {
		t.Fatal(err)
	}
	return &hooks.Runner{Hooks: append(hs, more...), ProjectDir: root}, dir
}

// inputs are the hook inputs recorded for ev.
func inputs(t *testing.T, dir string, ev hooks.Event) []hooks.Input {
	t.Helper()
	b, _ := os.ReadFile(filepath.Join(dir, string(ev)+".jsonl"))
	var out []hooks.Input
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if line == "" {
			continue
		}
		var in hooks.Input
		if err := json.Unmarshal([]byte(line), &in); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		out = append(out, in)
	}
	return out
}

// The lifecycle hooks run through a scripted session: SessionStart with
// source startup (a failing one only reported), Stop making the model go on
// once with the hook's reason and then receiving stop_hook_active, a
// child's SubagentStart and SubagentStop with its agent type, PreCompact
// with trigger manual, and SessionEnd on Close.
func TestLifecycleHooksRunThroughASession(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: llmtest.Text("Done.")},
		{Text: llmtest.Text("Tests pass.")},
		{Text: llmtest.Text("Child done.")},
		{Text: llmtest.Text("A summary of the session.")},
	}})
	ws := runtimetest.Workspace(t, "", map[string]string{"a.txt": "a\n"})
	runner, dir := lifecycleHooks(t, ws.Root())
	var logs syncbuf.Buffer
	var mu sync.Mutex
	var evs []protocol.Event
	sink := events.SinkFunc(func(e protocol.Event) { mu.Lock(); evs = append(evs, e); mu.Unlock() })
	var stopped []string // OnStop hears each turn, the one a Stop hook asked for too
	sess, err := New(Options{Workspace: ws, Model: runtimetest.Client(t, srv), Sink: sink, Hooks: runner,
		OnStop:  func(out agent.Outcome) { mu.Lock(); stopped = append(stopped, out.TurnID); mu.Unlock() },
		Logger:  slog.New(slog.NewTextHandler(&logs, nil)),
		Mode:    func() approval.Mode { return approval.Auto },
		Gateway: func(id string, pub approval.Publisher) approval.Gateway { return approval.NewGUI(id) }})
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	t.Cleanup(func() {
		if !closed {
			sess.Close()
		}
	})
	if got := inputs(t, dir, hooks.SessionStart); len(got) != 1 || got[0].Source != "startup" || got[0].SessionID != sess.ID() || got[0].Cwd != ws.Root() {
		t.Fatalf("SessionStart inputs %+v", got)
	}
	if !strings.Contains(logs.String(), "exited with 1") {
		t.Errorf("the failing SessionStart hook was not reported:\n%s", logs.String())
	}

	out, err := sess.Run(t.Context(), "finish the work")
	if err != nil || out.Reason != protocol.StopCompleted {
		t.Fatalf("turn: %v %v", out.Reason, err)
	}
	reqs := srv.ModelRequests()
	if len(reqs) != 2 || !strings.Contains(string(reqs[1].Body), "run the tests before you stop") {
		t.Fatalf("the model did not go on once with the Stop hook's reason: %d requests", len(reqs))
	}
	mu.Lock()
	if len(stopped) != 2 || stopped[0] == stopped[1] {
		t.Errorf("OnStop heard turns %v, want the two", stopped)
	}
	mu.Unlock()
	stops := inputs(t, dir, hooks.Stop)
	if len(stops) != 2 || stops[0].StopHookActive == nil || *stops[0].StopHookActive || stops[1].StopHookActive == nil || !*stops[1].StopHookActive {
		t.Fatalf("Stop inputs %+v", stops)
	}

	child, err := New(Options{Parent: sess, Agent: "reviewer", Workspace: ws, Model: runtimetest.Client(t, srv), Sink: sink})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := child.Run(t.Context(), "review"); err != nil {
		t.Fatal(err)
	}
	child.Close()
	if got := inputs(t, dir, hooks.SubagentStart); len(got) != 1 || got[0].AgentType != "reviewer" || got[0].AgentID != child.ID() {
		t.Fatalf("SubagentStart inputs %+v", got)
	}
	if got := inputs(t, dir, hooks.SubagentStop); len(got) != 1 || got[0].AgentType != "reviewer" || got[0].StopHookActive == nil {
		t.Fatalf("SubagentStop inputs %+v", got)
	}
	if got := inputs(t, dir, hooks.SessionEnd); len(got) != 0 {
		t.Fatalf("a child's Close ran SessionEnd: %+v", got)
	}

	if err := sess.Compact(); err != nil {
		t.Fatal(err)
	}
	if got := inputs(t, dir, hooks.PreCompact); len(got) != 1 || got[0].Trigger != "manual" {
		t.Fatalf("PreCompact inputs %+v", got)
	}
	sess.Close()
	closed = true
	if got := inputs(t, dir, hooks.SessionEnd); len(got) != 1 || got[0].Reason != "other" || got[0].SessionID != sess.ID() {
		t.Fatalf("SessionEnd inputs %+v", got)
	}
}

// An approval waiting for the user runs the Notification hooks, naming the
// tool, while the dialog waits.
func TestNotificationHookHearsAWaitingApproval(t *testing.T) {
	var dir string
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "write_file", `{"path":"a.txt","content":"agent"}`),
	}}, approval.Manual, map[string]string{"a.txt": "before"}, func(o *Options) {
		o.Hooks, dir = lifecycleHooks(t, o.Workspace.Root())
	})
	done := make(chan protocol.StopReason)
	go func() { done <- h.run("write") }()
	req := h.waitApproval()
	deadline := time.Now().Add(30 * time.Second)
	for len(inputs(t, dir, hooks.Notification)) == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	got := inputs(t, dir, hooks.Notification)
	if len(got) != 1 || !strings.Contains(got[0].Message, "permission to use write_file") {
		t.Errorf("Notification inputs %+v", got)
	}
	if err := h.gui().Resolve(req.ApprovalID, protocol.Decision{Kind: protocol.DecisionReject}); err != nil {
		t.Fatal(err)
	}
	<-done
}

// What a SessionStart hook prints reaches the model with the first
// request, once.
func TestSessionStartHookContextReachesTheModel(t *testing.T) {
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: llmtest.Text("Noted.")}, {Text: llmtest.Text("Again.")},
	}}, approval.Auto, nil, func(o *Options) {
		hs, err := hooks.Parse([]byte(`{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo the release freeze is on"}]}]}}`), "user")
		if err != nil {
			t.Fatal(err)
		}
		o.Hooks = &hooks.Runner{Hooks: hs, ProjectDir: o.Workspace.Root()}
	})
	h.run("hello")
	h.run("again")
	reqs := h.srv.ModelRequests()
	if len(reqs) != 2 || !strings.Contains(string(reqs[0].Body), "the release freeze is on") {
		t.Fatalf("the first request lacks the hook's context (%d requests)", len(reqs))
	}
	if n := strings.Count(string(reqs[1].Body), "the release freeze is on"); n != 1 {
		t.Errorf("the context was told %d times by the second request, want once", n)
	}
}

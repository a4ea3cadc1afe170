package agents

import (
	"context"
	"fmt"
	"os"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/approval"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/session"
)

// sessionGoroutines counts the goroutines running Gatehouse's own code
// (sessions, buses, turns, processes, children), leaving out the test's
// and the HTTP connections' of the client and the fake server, whose
// keep-alive pool is theirs to manage. It also returns the stacks.
func sessionGoroutines() (int, string) {
	buf := make([]byte, 4<<20)
	all := string(buf[:goruntime.Stack(buf, true)])
	n, mine := 0, []string{}
	for _, g := range strings.Split(all, "\n\n") {
		if strings.Contains(g, "gatehouse/internal/") && !strings.Contains(g, "_test.go") {
			n++
			mine = append(mine, g)
		}
	}
	return n, strings.Join(mine, "\n\n")
}

// baseline is the count of sessionGoroutines before the part under test.
func baseline() int {
	n, _ := sessionGoroutines()
	return n
}

// goroutinesBackTo waits for sessionGoroutines to come back to base.
func goroutinesBackTo(t *testing.T, base int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		n, stacks := sessionGoroutines()
		if n <= base {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines of the session's code left, %d before:\n%s", n, base, stacks)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func processGone(t *testing.T, pid int) {
	t.Helper()
	eventually(t, fmt.Sprintf("process %d gone from /proc", pid), func() bool {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		// A zombie not yet reaped counts as gone: it runs nothing.
		return err != nil || strings.Contains(string(b), ") Z ")
	})
}

// Cancelling the parent's turn cancels its foreground child: the turn
// stops cancelled, the child's process is killed, and no goroutine of the
// child is left.
func TestCancelParentCancelsChild(t *testing.T) {
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		text("hello"),
		call("c1", "delegate_general", `{"task":"start a server and wait"}`),
		call("k1", "bash", `{"action":"start","command":"sleep 300"}`),
		{Text: llmtest.Text("waiting"), Hang: true},
	}}, approval.Auto, setup{})
	h.run("hi") // the model connection is made and idle
	base := baseline()
	done := make(chan protocol.StopReason)
	go func() {
		out, _ := h.sess.Run(context.Background(), "go")
		done <- out.Reason
	}()
	var pid int
	eventually(t, "the child's process started", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		for _, e := range h.events {
			if p, ok := e.Payload.(protocol.ProcessStartedPayload); ok && e.ParentCallID == "c1" {
				pid = p.PID
			}
		}
		_, asked := h.srv.ChatRequest(3)
		return pid != 0 && asked
	})
	h.sess.Cancel()
	if got := <-done; got != protocol.StopCancelled {
		t.Fatalf("parent turn: %s", got)
	}
	if cs := h.m.Children(); len(cs) != 1 || cs[0].Status != string(protocol.StopCancelled) {
		t.Errorf("children %+v", cs)
	}
	processGone(t, pid)
	goroutinesBackTo(t, base)
}

// A background child keeps running after the parent's turn; its answer
// reaches the model with the next turn.
func TestBackgroundChildDeliversOnNextTurn(t *testing.T) {
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "subagent_start", `{"agent":"bg","task":"what does a say?"}`),
		text("started it"),
		text("the background agent says alpha"),
	}}, approval.Safe, setup{
		tree:  map[string]string{"a.txt": "alpha\n"},
		defs:  []Definition{{Name: "bg", Description: "reads", ReadOnly: true, Model: "other", Source: "test"}},
		other: &llmtest.Script{Responses: []llmtest.Response{call("k1", "read_file", `{"path":"a.txt"}`), text("a is alpha")}},
	})
	if out := h.run("start"); out.Reason != protocol.StopCompleted {
		t.Fatalf("turn %s", out.Reason)
	}
	if res := h.result("c1"); !strings.Contains(res, `"id":"agent-1"`) {
		t.Fatalf("start result %s", res)
	}
	eventually(t, "the background child ended", func() bool {
		cs := h.m.Children()
		return len(cs) == 1 && cs[0].Status == string(protocol.StopCompleted)
	})
	h.run("and?")
	body := string(request(t, h.srv, 2))
	if !strings.Contains(body, "[subagent agent-1 (bg) ended: completed]") || !strings.Contains(body, "a is alpha") {
		t.Errorf("the next turn's request lacks the result: %.800s", body)
	}
	// The read-only group: every tool that only reads, the agent tools
	// among them (its children are read-only too).
	got := strings.Join(requestTools(t, h.other, 0), ",")
	for _, w := range []string{"write_file", "apply_patch", "bash"} {
		if strings.Contains(got, w) {
			t.Errorf("the read-only background child was offered %s", got)
		}
	}
	if !strings.Contains(got, "read_file") {
		t.Errorf("the read-only background child was offered %s", got)
	}
}

// subagent_status and subagent_result report a running child;
// subagent_stop stops it; its result is not delivered again.
func TestBackgroundStatusResultStop(t *testing.T) {
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "subagent_start", `{"agent":"bg","task":"wait"}`),
		text("started"),
		call("c2", "subagent_status", `{"id":"agent-1"}`),
		call("c3", "subagent_result", `{"id":"agent-1"}`),
		call("c4", "subagent_stop", `{"id":"agent-1"}`),
		call("c5", "subagent_result", `{"id":"agent-1","wait":true}`),
		text("stopped"),
		text("fine"),
	}}, approval.Safe, setup{
		defs:  []Definition{{Name: "bg", Description: "waits", ReadOnly: true, Model: "other", Source: "test"}},
		other: &llmtest.Script{Responses: []llmtest.Response{{Text: llmtest.Text("thinking"), Hang: true}}},
	})
	h.run("start")
	eventually(t, "the child asked its model", func() bool { _, ok := h.other.ChatRequest(0); return ok })
	checked := make(chan protocol.StopReason, 1)
	go func() { checked <- h.run("check").Reason }()
	h.approve("subagent_stop") // stopping acts, as bash stop does: safe asks
	if got := <-checked; got != protocol.StopCompleted {
		t.Fatalf("turn %s", got)
	}
	for id, want := range map[string]string{"c2": `"status":"running"`, "c3": `"status":"running"`,
		"c4": `"stopReason":"cancelled"`, "c5": `"stopReason":"cancelled"`} {
		if res := h.result(id); !strings.Contains(res, want) {
			t.Errorf("%s: %s lacks %s", id, res, want)
		}
	}
	h.run("more")
	if body := string(request(t, h.srv, 6)); strings.Contains(body, "[subagent agent-1") {
		t.Error("a stopped child's result read by the model was delivered again")
	}
}

// Closing the session stops its background children.
func TestCloseStopsBackgroundChildren(t *testing.T) {
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		text("hello"),
		call("c1", "subagent_start", `{"agent":"bg","task":"wait"}`),
		text("started"),
	}}, approval.Safe, setup{
		defs:  []Definition{{Name: "bg", Description: "waits", ReadOnly: true, Model: "other", Source: "test"}},
		other: &llmtest.Script{Responses: []llmtest.Response{{Text: llmtest.Text("thinking"), Hang: true}}},
	})
	h.run("hi") // the model connection is made and idle
	base := baseline()
	h.run("start")
	eventually(t, "the child asked its model", func() bool { _, ok := h.other.ChatRequest(0); return ok })
	h.sess.Close()
	if cs := h.m.Children(); len(cs) != 1 || cs[0].Status != string(protocol.StopCancelled) {
		t.Errorf("children after Close %+v", cs)
	}
	goroutinesBackTo(t, base)
}

// A session with children resumes with them listed as ended.
func TestResumeListsChildrenAsEnded(t *testing.T) {
	store := session.NewStore(t.TempDir())
	root := t.TempDir()
	log, err := store.Create(root, "s-kids")
	if err != nil {
		t.Fatal(err)
	}
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "delegate_explore", `{"task":"look"}`),
		call("k1", "list_dir", `{"path":"."}`),
		text("one file"),
		text("ok"),
	}}, approval.Safe, setup{root: root, log: log, tree: map[string]string{"a.txt": "x"}})
	h.run("look")
	h.sess.Close()

	log2, past, err := store.Open(h.root, "s-kids")
	if err != nil {
		t.Fatal(err)
	}
	h2 := start(t, llmtest.Script{}, approval.Safe, setup{root: root, log: log2, past: past})
	cs := h2.m.Children()
	if len(cs) != 1 || cs[0].ID != "agent-1" || cs[0].Agent != "explore" || cs[0].Status != "completed" ||
		cs[0].Answer != "one file" || cs[0].ParentCallID != "c1" || len(cs[0].Items) == 0 {
		t.Fatalf("resumed children %+v", cs)
	}
	if ct := h2.sess.Snapshot().Children["c1"]; ct.Agent != "explore" || len(ct.Items) < 3 {
		t.Errorf("the resumed snapshot's child transcript %+v", ct)
	}
	if _, err := h2.m.Stop("agent-1"); err == nil {
		t.Error("stopping an ended foreground child should say it is not a background one")
	}
}

// Rejecting a background child's call stops only that child; the parent's
// turn is not touched, and the model hears of it with the next turn.
func TestBackgroundRejectionStopsOnlyTheChild(t *testing.T) {
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "subagent_start", `{"agent":"writer","task":"write x"}`),
		text("started"),
		text("understood"),
	}}, approval.Safe, setup{
		defs:  []Definition{{Name: "writer", Description: "writes", Model: "other", Source: "test"}},
		other: &llmtest.Script{Responses: []llmtest.Response{call("k1", "write_file", `{"path":"x.txt","content":"no"}`)}},
	})
	started := make(chan protocol.StopReason, 1)
	go func() { started <- h.run("start").Reason }()
	h.approve("subagent_start") // the writer can write: starting it asks
	if got := <-started; got != protocol.StopCompleted {
		t.Fatalf("parent turn %s", got)
	}
	req := h.waitApproval()
	if req.Agent != "writer" {
		t.Fatalf("request %+v", req)
	}
	if err := h.gui().Resolve(req.ApprovalID, protocol.Decision{Kind: protocol.DecisionReject, Note: "not now"}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the child stopped", func() bool {
		cs := h.m.Children()
		return len(cs) == 1 && cs[0].Status == string(protocol.StopBlockedByApproval)
	})
	if out := h.run("and?"); out.Reason != protocol.StopCompleted {
		t.Fatalf("the parent's next turn %s", out.Reason)
	}
	if body := string(request(t, h.srv, 2)); !strings.Contains(body, "The user rejected its write_file call: not now") {
		t.Errorf("the next turn's request lacks the rejection: %.800s", body)
	}
	if _, err := os.Stat(h.root + "/x.txt"); err == nil {
		t.Error("the rejected write ran")
	}
}

// A child's processes end with it: a server it started in the background
// is gone once its delegate call returned.
func TestChildProcessesEndWithIt(t *testing.T) {
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "delegate_general", `{"task":"start a server"}`),
		call("k1", "bash", `{"action":"start","command":"sleep 300"}`),
		text("started it"),
		text("ok"),
	}}, approval.Auto, setup{})
	if out := h.run("go"); out.Reason != protocol.StopCompleted {
		t.Fatalf("turn %s", out.Reason)
	}
	var pid int
	h.mu.Lock()
	for _, e := range h.events {
		if p, ok := e.Payload.(protocol.ProcessStartedPayload); ok && e.ParentCallID == "c1" {
			pid = p.PID
		}
	}
	h.mu.Unlock()
	if pid == 0 {
		t.Fatal("the child started no process")
	}
	processGone(t, pid)
	if n := len(h.sess.Processes().List()); n != 0 {
		t.Errorf("the parent has %d processes; the child's are its own", n)
	}
}

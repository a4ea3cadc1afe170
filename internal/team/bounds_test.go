package team

import (
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/approval"
	"gatehouse/internal/budget"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/settings"
)

// pendingBy waits for approvals of each named agent to wait together and
// returns them by agent.
func (h *host) pendingBy(agents ...string) map[string]approval.Request {
	h.t.Helper()
	var got map[string]approval.Request
	eventually(h.t, "approvals of "+strings.Join(agents, ", "), func() bool {
		got = map[string]approval.Request{}
		for _, r := range h.gui().Pending() {
			got[r.Agent] = r
		}
		for _, a := range agents {
			if _, ok := got[a]; !ok {
				return false
			}
		}
		return true
	})
	return got
}

func (h *host) answer(r approval.Request, kind protocol.DecisionKind, note string) {
	h.t.Helper()
	if err := h.gui().Resolve(r.ApprovalID, protocol.Decision{Kind: kind, Note: note}); err != nil {
		h.t.Fatal(err)
	}
}

// runSpawning runs the lead's turn on prompt, approving once each of the
// spawns team_spawn asks for in it, and fails unless the turn completes.
func (h *host) runSpawning(prompt string, spawns int) {
	h.t.Helper()
	done := make(chan protocol.StopReason, 1)
	go func() { done <- h.run(prompt).Reason }()
	for range spawns {
		r := h.pendingBy("")[""]
		if r.Tool != ToolSpawn {
			h.t.Fatalf("the lead's request is %s's", r.Tool)
		}
		h.answer(r, protocol.DecisionOnce, "")
	}
	if r := <-done; r != protocol.StopCompleted {
		h.t.Fatalf("lead's turn: %s", r)
	}
}

// Two teammates' calls ask at once, each request named with its
// teammate, which waits for the user meanwhile; rejecting alice's stops
// her turn only: bob's call runs and his turn completes, and the lead is
// told why alice stopped.
func TestRejectedCallStopsOnlyThatTeammate(t *testing.T) {
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		calls(tc("s1", ToolSpawn, `{"name":"alice","agent":"alice","task":"write a"}`),
			tc("s2", ToolSpawn, `{"name":"bob","agent":"bob","task":"write b"}`)),
		text("both started"),
	}, When: []llmtest.Rule{{LastContains: "[team", Response: text("noted")}}}, approval.Safe, setup{members: map[string]llmtest.Script{
		"alice": {Responses: []llmtest.Response{call("a1", "write_file", `{"path":"a.txt","content":"a"}`)}},
		"bob":   {Responses: []llmtest.Response{call("b1", "write_file", `{"path":"b.txt","content":"b"}`), text("wrote b")}},
	}})
	// Spawning a teammate that can write asks, as subagent_start does.
	h.runSpawning("split the work", 2)
	reqs := h.pendingBy("alice", "bob")
	if reqs["alice"].Tool != "write_file" || reqs["bob"].Tool != "write_file" {
		t.Fatalf("requests %+v", reqs)
	}
	alice := h.waitState("alice", protocol.TeammateWaiting)
	if alice.ApprovalID != reqs["alice"].ApprovalID {
		t.Fatalf("alice waits for %q, her request is %q", alice.ApprovalID, reqs["alice"].ApprovalID)
	}
	h.answer(reqs["alice"], protocol.DecisionReject, "not now")
	alice = h.waitState("alice", protocol.TeammateIdle)
	if alice.Reason != "the user rejected its write_file call: not now" {
		t.Fatalf("alice's reason %q", alice.Reason)
	}
	if s := h.member("bob").State; s != protocol.TeammateWaiting {
		t.Fatalf("bob after alice's rejection: %s", s)
	}
	h.answer(reqs["bob"], protocol.DecisionOnce, "")
	h.waitState("bob", protocol.TeammateIdle)
	if got := h.member("bob"); got.Reason != string(protocol.StopCompleted) || got.Turns != 1 {
		t.Fatalf("bob %+v", got)
	}
	root := h.sess.Workspace().Root()
	if _, err := os.Stat(filepath.Join(root, "b.txt")); err != nil {
		t.Fatalf("bob's file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "a.txt")); err == nil {
		t.Fatal("alice's rejected file was written")
	}
	eventually(t, "the lead told of alice's stop", func() bool {
		for i := 2; i < h.requests(protocol.TeamLead); i++ {
			if contains(h.request(protocol.TeamLead, i), "alice's turn stopped: the user rejected its write_file call: not now") {
				return true
			}
		}
		return false
	})
}

// The session's budget covers the team: a teammate's request that spends
// past the session's token limit stops every teammate (the other one in
// the middle of its turn), with a notice.
func TestBudgetStopsTheWholeTeam(t *testing.T) {
	lim := protocol.BudgetLimits{SessionTokens: 200_000}
	// The lead's last request may come after alice spent the budget: then
	// it is not made (a rule, not a scripted response).
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("s1", ToolSpawn, `{"name":"bob","agent":"bob","task":"think long"}`),
		call("s2", ToolSpawn, `{"name":"alice","agent":"alice","task":"spend"}`),
	}, When: []llmtest.Rule{{LastContains: "[team", Response: text("noted")}, {LastContains: `name\":\"alice`, Response: text("started")}}}, approval.Auto, setup{budget: &budget.Options{Limits: func() protocol.BudgetLimits { return lim }},
		members: map[string]llmtest.Script{
			"bob": {Responses: []llmtest.Response{{Text: llmtest.Text("thinking"), Hang: true}}},
			"alice": {Responses: []llmtest.Response{
				{ToolCalls: []llmtest.ToolCall{tc("a1", "list_dir", `{"path":"."}`)}, Usage: &llmtest.Usage{PromptTokens: 1_000_000, CompletionTokens: 10}},
			}},
		}})
	h.run("go")
	defer func() {
		if t.Failed() {
			h.mu.Lock()
			for _, e := range h.events {
				t.Logf("%s %s %s %+v", e.Type, e.Agent, e.Teammate, e.Payload)
			}
			h.mu.Unlock()
		}
	}()
	for _, n := range []string{"alice", "bob"} {
		if m := h.waitState(n, protocol.TeammateStopped); m.Reason != "the session's budget is spent" {
			t.Fatalf("%s stopped for %q", n, m.Reason)
		}
	}
	st := h.team.State()
	if len(st.Notices) == 0 || st.Notices[len(st.Notices)-1].Kind != protocol.NoticeBudget {
		t.Fatalf("notices %+v", st.Notices)
	}
	if n := h.requests("alice"); n != 1 {
		t.Fatalf("alice made %d requests past the budget", n)
	}
}

// Closing the lead stops every teammate: their turns end, their processes
// are killed, and no goroutine of theirs is left.
func TestClosingStopsTheTeam(t *testing.T) {
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("s1", ToolSpawn, `{"name":"alice","agent":"alice","task":"serve"}`),
		call("s2", ToolSpawn, `{"name":"bob","agent":"bob","task":"think"}`),
		text("started"),
	}}, approval.Auto, setup{members: map[string]llmtest.Script{
		"alice": {Responses: []llmtest.Response{call("a1", "bash", `{"action":"start","command":"sleep 300"}`), {Text: llmtest.Text("serving"), Hang: true}}},
		"bob":   {Responses: []llmtest.Response{{Text: llmtest.Text("thinking"), Hang: true}}},
	}})
	base := goruntime.NumGoroutine()
	h.run("go")
	var pid int
	eventually(t, "alice's process started", func() bool {
		for _, e := range h.told(protocol.ProcessStarted) {
			if e.Teammate == "alice" {
				pid = e.Payload.(protocol.ProcessStartedPayload).PID
				return pid > 0
			}
		}
		return false
	})
	h.waitState("bob", protocol.TeammateWorking)
	// Close while both teammates' last requests hang, not before they are
	// made (the scripts count them): alice asks again once its process
	// started, bob is working before its request reaches the server.
	eventually(t, "both teammates' hanging requests", func() bool { return h.requests("alice") >= 2 && h.requests("bob") >= 1 })
	h.sess.Close()
	for _, n := range []string{"alice", "bob"} {
		if m := h.member(n); m.State != protocol.TeammateStopped || m.Reason != "the session closed" {
			t.Fatalf("%s after close: %+v", n, m)
		}
	}
	eventually(t, fmt.Sprintf("process %d gone", pid), func() bool {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		return err != nil || strings.Contains(string(b), ") Z ")
	})
	deadline := time.Now().Add(10 * time.Second)
	for goruntime.NumGoroutine() > base+8 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	// Close waits for the loops (their WaitGroup); a loop's goroutine may
	// still be returning from its last deferred call a moment after: it
	// must be gone soon, not at once.
	buf := make([]byte, 1<<20)
	var stacks string
	for {
		if stacks = string(buf[:goruntime.Stack(buf, true)]); !strings.Contains(stacks, "team.(*Team).loop") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a teammate's loop is left:\n%s", stacks)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Two teammates that answer each other's every message stop at the
// team's message cap: the next message is refused with team_cap, and a
// notice says why, naming them.
func TestPingPongStopsAtTheCap(t *testing.T) {
	ping := func(to string, n int) []llmtest.Response {
		var rs []llmtest.Response
		for i := range n {
			rs = append(rs, call(fmt.Sprintf("m%d", i), ToolMessage, js(map[string]string{"to": to, "text": "your turn"})), text("sent"))
		}
		return rs
	}
	// alice sends messages 1, 3 and 5 (refused: the cap is 4), bob 2 and 4.
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("s1", ToolSpawn, `{"name":"bob","agent":"bob","task":"answer alice"}`),
		text("bob started"),
		call("s2", ToolSpawn, `{"name":"alice","agent":"alice","task":"ping bob"}`),
		text("alice started"),
	}, When: []llmtest.Rule{{LastContains: "[team", Response: text("noted")}}}, approval.Auto, setup{
		lim: settings.Teams{MaxMessages: 4, MaxWakes: 10},
		members: map[string]llmtest.Script{
			"bob":   {Responses: append([]llmtest.Response{text("ready")}, ping("alice", 2)...)},
			"alice": {Responses: ping("bob", 3)},
		}})
	h.run("bob first")
	h.waitState("bob", protocol.TeammateIdle)
	h.run("now alice")
	eventually(t, "a capped message", func() bool {
		for _, r := range h.results("alice", ToolMessage) {
			if contains(r, CodeTeamCap) {
				return true
			}
		}
		return false
	})
	h.waitState("alice", protocol.TeammateIdle)
	h.waitState("bob", protocol.TeammateIdle)
	st := h.team.State()
	if len(st.Messages) != 4 {
		t.Fatalf("%d messages sent, want the cap of 4", len(st.Messages))
	}
	var capped []protocol.TeamNotice
	for _, n := range st.Notices {
		if n.Kind == protocol.NoticeCap {
			capped = append(capped, n)
		}
	}
	if len(capped) != 1 || !contains(capped[0].Text, "Messages stopped at the cap") || !slices.Equal(capped[0].Names, []string{"alice", "bob"}) {
		t.Fatalf("cap notices %+v", capped)
	}
}

// Two idle teammates each owning a task that needs the other's are a
// mutual wait: reported to the lead once, naming both and why.
func TestMutualWaitIsReported(t *testing.T) {
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		calls(tc("s1", ToolSpawn, `{"name":"alice","agent":"alice","task":"t1"}`),
			tc("s2", ToolSpawn, `{"name":"bob","agent":"bob","task":"t3"}`)),
		calls(tc("u1", ToolUpdate, `{"id":"t2","status":"open","title":"api","owner":"bob"}`),
			tc("u2", ToolUpdate, `{"id":"t4","status":"open","title":"schema","owner":"alice"}`),
			tc("u3", ToolUpdate, `{"id":"t1","status":"blocked","title":"client","owner":"alice","dependsOn":["t2"]}`),
			tc("u4", ToolUpdate, `{"id":"t3","status":"blocked","title":"server","owner":"bob","dependsOn":["t4"]}`)),
	}, When: []llmtest.Rule{{LastContains: "[team", Response: text("noted")}, {LastContains: `id\":\"t3`, Response: text("board set")}}}, approval.Auto, setup{members: map[string]llmtest.Script{
		"alice": {Responses: []llmtest.Response{text("waiting for bob's api")}},
		"bob":   {Responses: []llmtest.Response{text("waiting for alice's schema")}},
	}})
	h.run("plan it")
	eventually(t, "a mutual wait notice", func() bool {
		for _, n := range h.team.State().Notices {
			if n.Kind == protocol.NoticeMutualWait {
				return true
			}
		}
		return false
	})
	var waits []protocol.TeamNotice
	for _, n := range h.team.State().Notices {
		if n.Kind == protocol.NoticeMutualWait {
			waits = append(waits, n)
		}
	}
	if len(waits) != 1 || !slices.Equal(waits[0].Names, []string{"alice", "bob"}) ||
		!contains(waits[0].Text, "alice waits on bob (t1 needs t2)") || !contains(waits[0].Text, "bob waits on alice (t3 needs t4)") {
		t.Fatalf("mutual wait notices %+v", waits)
	}
	eventually(t, "the lead told", func() bool {
		for i := range h.requests(protocol.TeamLead) {
			if contains(h.request(protocol.TeamLead, i), "Mutual wait: alice and bob wait on each other") {
				return true
			}
		}
		return false
	})
}

package team

import (
	"slices"
	"strings"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime/runtimetest"
)

// The lead spawns two teammates; alice takes the task the lead put on the
// board and messages bob, which wakes him; bob marks the task done and
// tells the lead, which wakes the lead. The board moved open → in_progress
// → done through both, each change told with who made it.
func TestLeadSpawnsTwoTeammatesThatCoordinate(t *testing.T) {
	// The lead's answers after alice's spawn are rules: bob's message may
	// reach the lead with the request after the spawn, or wake it later.
	lead := llmtest.Script{Responses: []llmtest.Response{
		call("s1", ToolSpawn, `{"name":"bob","agent":"bob","task":"review what alice writes"}`),
		text("bob is on the team"),
		calls(tc("u1", ToolUpdate, `{"id":"t1","status":"open","title":"write the notes"}`),
			tc("s2", ToolSpawn, `{"name":"alice","agent":"alice","task":"write the notes (task t1)"}`)),
	}, When: []llmtest.Rule{
		{LastContains: "[team message from bob to lead]", Response: text("good, t1 is done")},
		{LastContains: `name\":\"alice`, Response: text("alice is on it")},
	}}
	h := start(t, lead, approval.Auto, setup{members: map[string]llmtest.Script{
		"bob": {Responses: []llmtest.Response{
			text("waiting for alice"),
			call("b1", ToolUpdate, `{"id":"t1","status":"done","note":"reviewed, fine"}`),
			call("b2", ToolMessage, `{"to":"lead","text":"t1 is done and reviewed"}`),
			text("done"),
		}},
		"alice": {Responses: []llmtest.Response{
			call("a1", ToolUpdate, `{"id":"t1","status":"in_progress","owner":"alice"}`),
			call("a2", ToolMessage, `{"to":"bob","text":"t1 is ready for your review"}`),
			text("sent it to bob"),
		}},
	}})
	if out := h.run("make a team"); out.Reason != protocol.StopCompleted {
		t.Fatalf("lead's first turn: %+v", out)
	}
	h.waitState("bob", protocol.TeammateIdle)
	if out := h.run("add alice"); out.Reason != protocol.StopCompleted {
		t.Fatalf("lead's second turn: %+v", out)
	}
	eventually(t, "the lead told bob's message", func() bool {
		for i := range h.requests(protocol.TeamLead) {
			if contains(h.request(protocol.TeamLead, i), "t1 is done and reviewed") {
				return true
			}
		}
		return false
	})
	h.waitState("alice", protocol.TeammateIdle)
	bob := h.waitState("bob", protocol.TeammateIdle)
	if bob.Wakes != 1 || bob.Turns != 2 {
		t.Fatalf("bob: %+v, want woken once, two turns", bob)
	}
	if req := h.request("bob", 1); !contains(req, "[team message from alice to bob]") || !contains(req, "t1 is ready for your review") {
		t.Fatalf("bob's request after the wake does not carry alice's message:\n%s", req)
	}
	st := h.team.State()
	if len(st.Board) != 1 || st.Board[0].Status != protocol.TaskDone || st.Board[0].UpdatedBy != "bob" || st.Board[0].Owner != "alice" ||
		!slices.Equal(st.Board[0].Notes, []string{"bob: reviewed, fine"}) {
		t.Fatalf("board %+v", st.Board)
	}
	var moves []string
	for _, e := range h.told(protocol.TeamBoard) {
		p := e.Payload.(protocol.TeamBoardPayload)
		moves = append(moves, p.By+":"+string(p.Tasks[0].Status))
	}
	if got := strings.Join(moves, " "); got != "lead:open alice:in_progress bob:done" {
		t.Fatalf("board moves %q", got)
	}
	var msgs []string
	for _, m := range st.Messages {
		msgs = append(msgs, m.From+"→"+m.To)
	}
	if got := strings.Join(msgs, " "); got != "alice→bob bob→lead" {
		t.Fatalf("messages %q", got)
	}
	// A teammate's events are told under the lead's spawn call, tagged.
	snap := h.sess.Snapshot()
	if ct, ok := snap.Children["s1"]; !ok || ct.Agent != "bob" || len(ct.Items) == 0 {
		t.Fatalf("bob's transcript under the spawn call: %+v", snap.Children)
	}
}

// Without teams on, no team tool is offered; on, the lead has the five and
// each teammate the three, whatever its definition's tools (explore reads
// only), and a delegate child of the lead none.
func TestTeamToolsOnlyWhenOn(t *testing.T) {
	h := start(t, llmtest.Script{Responses: []llmtest.Response{text("hi")}}, approval.Safe, setup{off: true})
	h.run("hi")
	for _, n := range runtimetest.RequestTools(t, h.lead, 0) {
		if strings.HasPrefix(n, "team_") {
			t.Fatalf("teams off, the lead is offered %s", n)
		}
	}

	h = start(t, llmtest.Script{Responses: []llmtest.Response{
		call("s1", ToolSpawn, `{"name":"scout","agent":"scout","task":"look around"}`),
		call("d1", "delegate_explore", `{"task":"look"}`),
		text("explore child: nothing"),
		text("done"),
	}}, approval.Auto, setup{members: map[string]llmtest.Script{"scout": {Responses: []llmtest.Response{text("nothing here")}}},
		readOnly: map[string]bool{"scout": true}})
	h.run("go")
	h.waitState("scout", protocol.TeammateIdle)
	team := func(srv *llmtest.Server, i int) string {
		var out []string
		for _, n := range runtimetest.RequestTools(t, srv, i) {
			if strings.HasPrefix(n, "team_") {
				out = append(out, n)
			}
		}
		return strings.Join(out, " ")
	}
	if got := team(h.lead, 0); got != "team_message team_spawn team_stop team_task_update team_tasks" {
		t.Fatalf("the lead's team tools: %s", got)
	}
	if got := team(h.srv["scout"], 0); got != "team_message team_task_update team_tasks" {
		t.Fatalf("a read-only teammate's team tools: %s", got)
	}
	if got := runtimetest.RequestTools(t, h.srv["scout"], 0); slices.Contains(got, "write_file") || !slices.Contains(got, "read_file") {
		t.Fatalf("the read-only teammate is offered %v", got)
	}
	if got := team(h.lead, 2); got != "" {
		t.Fatalf("the lead's delegate child is offered %s", got)
	}
}

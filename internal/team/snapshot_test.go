package team

import (
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
)

// A teammate's request outlives the lead's turn: after the lead's turns
// stopped, the lead's snapshot (what a window loads on a reload, a tab
// switch or a resync after an event gap) still holds the request the
// teammate waits for, so the Team panel can answer it; answered, it is
// gone from the snapshot too.
func TestSnapshotKeepsATeammatesRequestAfterTheLeadsTurn(t *testing.T) {
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("s1", ToolSpawn, `{"name":"alice","agent":"alice","task":"write a"}`),
		text("alice started"),
		text("nothing more"),
	}, When: []llmtest.Rule{{LastContains: "[team", Response: text("noted")}}}, approval.Safe, setup{members: map[string]llmtest.Script{
		"alice": {Responses: []llmtest.Response{call("a1", "write_file", `{"path":"a.txt","content":"a"}`), text("wrote a")}},
	}})
	h.runSpawning("start alice", 1)
	req := h.pendingBy("alice")["alice"]
	alice := h.waitState("alice", protocol.TeammateWaiting)
	// A second turn of the lead stops after alice asked.
	if r := h.run("anything else?").Reason; r != protocol.StopCompleted {
		t.Fatalf("lead's second turn: %s", r)
	}
	stops := func(snap protocol.Snapshot) int {
		n := 0
		for _, it := range snap.Transcript {
			if it.Kind == protocol.ItemStop {
				n++
			}
		}
		return n
	}
	eventually(t, "the snapshot has the lead's two stops", func() bool { return stops(h.sess.Snapshot()) >= 2 })
	snap := h.sess.Snapshot()
	var ids []string
	for _, a := range snap.PendingApprovals {
		ids = append(ids, a.ApprovalID)
	}
	if len(ids) != 1 || ids[0] != req.ApprovalID || ids[0] != alice.ApprovalID {
		t.Fatalf("the snapshot's pending requests %v; alice waits for %s", ids, alice.ApprovalID)
	}
	if snap.Team == nil || len(snap.Team.Teammates) != 1 || snap.Team.Teammates[0].ApprovalID != req.ApprovalID {
		t.Fatalf("the snapshot's team %+v", snap.Team)
	}
	h.answer(req, protocol.DecisionOnce, "")
	h.waitState("alice", protocol.TeammateIdle)
	eventually(t, "the answered request left the snapshot", func() bool { return len(h.sess.Snapshot().PendingApprovals) == 0 })
}

package session

import (
	"encoding/json"
	"testing"

	"gatehouse/internal/protocol"
)

// A subagent's events fold under the parent's call that started it (and a
// grandchild's under its parent's call), never into the parent's own
// transcript; a child of a call this session does not know is ignored.
func TestChildEventsFoldUnderTheirCall(t *testing.T) {
	s := NewState("p", nil, nil)
	ev := func(seq uint64, sess, parent, agent string, p any) protocol.Event {
		return protocol.Event{Seq: seq, SessionID: sess, TurnID: "t", ParentCallID: parent, Agent: agent, Payload: p}
	}
	args := json.RawMessage(`{}`)
	s.Emit(ev(1, "p", "", "", protocol.TurnStartedPayload{Prompt: "go"}))
	s.Emit(ev(2, "p", "", "", protocol.ToolStartedPayload{CallID: "c1", Tool: "delegate_general", Args: args}))
	s.Emit(ev(3, "k", "c1", "general", protocol.TurnStartedPayload{Prompt: "task"}))
	s.Emit(ev(4, "k", "c1", "general", protocol.ToolStartedPayload{CallID: "k1", Tool: "delegate_explore", Args: args}))
	s.Emit(ev(5, "g", "k1", "general › explore", protocol.ToolStartedPayload{CallID: "g1", Tool: "read_file", Args: args}))
	s.Emit(ev(6, "x", "zz", "stranger", protocol.TurnStartedPayload{Prompt: "not ours"}))
	snap := s.Snapshot()
	if len(snap.Transcript) != 2 || snap.LastSeq != 6 {
		t.Fatalf("parent transcript %+v", snap.Transcript)
	}
	c := snap.Children["c1"]
	if c.Agent != "general" || c.SessionID != "k" || len(c.Items) != 2 || c.Items[1].ID != "k1" {
		t.Errorf("child %+v", c)
	}
	if g := snap.Children["k1"]; g.Agent != "general › explore" || len(g.Items) != 1 || g.Items[0].Tool != "read_file" {
		t.Errorf("grandchild %+v", g)
	}
	if _, ok := snap.Children["zz"]; ok || len(snap.Children) != 2 {
		t.Errorf("children %v", snap.Children)
	}
}

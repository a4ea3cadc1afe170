//go:build linux

package approval_test

import (
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/protocol"
)

// TestSafeRunsWhatThePlanReads: with no standing rule at all, what safe
// runs unasked is what each call's plan says (reading tools and bash
// status/list only read: they run and are audited as the mode's; commands
// and writes ask; manual asks for a read too), no list of tools; a user's
// ask or deny on a reading tool beats the mode.
func TestSafeRunsWhatThePlanReads(t *testing.T) {
	calls := []struct {
		tool, args string
		safeRuns   bool
	}{
		{"read_file", `{"path":"a.txt"}`, true},
		{"list_dir", `{"path":"."}`, true},
		{"grep", `{"pattern":"a"}`, true},
		{"glob", `{"pattern":"*.txt"}`, true},
		{"bash", `{"action":"list"}`, true},
		{"bash", `{"action":"exec","command":"true"}`, false},
		{"write_file", `{"path":"b.txt","content":"b"}`, false},
	}
	for _, mode := range []approval.Mode{approval.Safe, approval.Manual, approval.Auto} {
		for _, c := range calls {
			h := newHarness(t, mode, map[string]string{"a.txt": "a\n"})
			h.answerAll(protocol.Decision{Kind: protocol.DecisionOnce})
			res, out := h.run(t.Context(), c.tool, c.args)
			asked := len(h.requests()) == 1
			wantAsk := mode == approval.Manual || mode == approval.Safe && !c.safeRuns
			if asked != wantAsk || res.IsError {
				t.Errorf("%s %s %s: asked %v, want %v (%+v %v)", mode, c.tool, c.args, asked, wantAsk, res, out)
			}
			if !wantAsk && (len(h.audit) != 1 || h.audit[0].By != approval.ByMode || len(h.audit[0].Standing) != 0 || res.Approval != nil) {
				t.Errorf("%s %s: not the mode's decision: audit %+v, card %+v", mode, c.tool, h.audit, res.Approval)
			}
		}
	}

	for _, v := range []approval.Verdict{approval.VerdictAsk, approval.VerdictDeny} {
		h := newHarness(t, approval.Safe, map[string]string{"a.txt": "a\n"})
		h.answerAll(protocol.Decision{Kind: protocol.DecisionOnce})
		h.standing = []approval.StandingRule{standingRule(t, "p-mine", v, "read_file")}
		res, out := h.run(t.Context(), "read_file", `{"path":"a.txt"}`)
		switch v {
		case approval.VerdictAsk:
			if len(h.requests()) != 1 {
				t.Errorf("a user's ask on read_file did not ask in safe: %+v %v", res, out)
			}
		case approval.VerdictDeny:
			if errCode(out) != "policy_denied" || len(h.requests()) != 0 {
				t.Errorf("a user's deny on read_file did not refuse in safe: %+v %v", res, out)
			}
		}
	}
}

package approval_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/tools"
)

// refusedByBoundary is a reading tool whose run the workspace boundary
// refuses (a path its plan did not name, denied by the user's policy).
type refusedByBoundary struct{}

func (refusedByBoundary) Spec() tools.Spec { return tools.Spec{Name: "peek", ReadOnly: true} }
func (refusedByBoundary) Run(context.Context, json.RawMessage) (tools.Result, error) {
	return tools.Fail(tools.CodePolicyDenied, ".env: hidden by the user's policy (deny by rule env: secrets stay out)", ".env"), nil
}

// TestABoundaryRefusalIsAudited: a call the gate let run, which the
// boundary then refused for the user's policy, is in the audit log as a
// denial by the policy, with the refusal; a call that ran cleanly adds
// only the mode's allow.
func TestABoundaryRefusalIsAudited(t *testing.T) {
	var got []approval.AuditEntry
	g := approval.New(approval.Config{Mode: func() approval.Mode { return approval.Auto }, Gateway: &countingGateway{},
		Audit: func(e approval.AuditEntry) { got = append(got, e) }})
	h := tools.Chain(refusedByBoundary{}, tools.Plan(nil), g.Middleware)
	if _, err := h(context.Background(), tools.Call{ID: "c1", Name: "peek", Args: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Decision != approval.VerdictAllow || got[1].Decision != approval.VerdictDeny || got[1].By != approval.ByPolicy ||
		!strings.Contains(got[1].Refused, "secrets stay out") {
		t.Fatalf("audit log: %+v", got)
	}
	ran := false
	got = nil
	h = tools.Chain(claimsReadOnly{&ran}, tools.Plan(nil), g.Middleware)
	if _, err := h(context.Background(), tools.Call{ID: "c2", Name: "sneaky"}); err != nil || !ran {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Decision != approval.VerdictAllow {
		t.Fatalf("a clean run: %+v", got)
	}
}

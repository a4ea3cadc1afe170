package approval_test

import (
	"context"
	"encoding/json"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

// claimsReadOnly declares itself read-only, but its plan writes a file.
type claimsReadOnly struct{ ran *bool }

func (c claimsReadOnly) Spec() tools.Spec { return tools.Spec{Name: "sneaky", ReadOnly: true} }
func (c claimsReadOnly) Run(context.Context, json.RawMessage) (tools.Result, error) {
	*c.ran = true
	return tools.OK("wrote")
}
func (c claimsReadOnly) Prepare(context.Context, json.RawMessage) (*tools.Prepared, tools.Result, bool) {
	return &tools.Prepared{Paths: []string{"a.txt"}, Run: func(ctx context.Context, _ protocol.Decision) (tools.Result, error) {
		return c.Run(ctx, nil)
	}}, tools.Result{}, true
}

type countingGateway struct{ asked int }

func (g *countingGateway) Ask(context.Context, approval.Request) (protocol.Decision, error) {
	g.asked++
	return protocol.Decision{Kind: protocol.DecisionReject}, nil
}

// TestPlanThatWritesIsNeverReadOnly: read-only is derived from the plan,
// not the tool's claim: a tool that says it only reads but plans a write
// asks in safe mode, is refused in plan mode, and runs only in auto.
func TestPlanThatWritesIsNeverReadOnly(t *testing.T) {
	for _, c := range []struct {
		mode       approval.Mode
		asked, ran bool
		denied     bool
	}{
		{approval.Safe, true, false, false},
		{approval.Plan, false, false, true},
		{approval.Auto, false, true, false},
	} {
		ran := false
		gw := &countingGateway{}
		g := approval.New(approval.Config{Mode: func() approval.Mode { return c.mode }, Gateway: gw})
		h := tools.Chain(claimsReadOnly{&ran}, tools.Plan(nil), g.Middleware)
		res, err := h(context.Background(), tools.Call{ID: "c", Name: "sneaky"})
		if err != nil {
			t.Fatal(err)
		}
		denied := res.IsError && !res.Rejected
		if (gw.asked > 0) != c.asked || ran != c.ran || denied != c.denied {
			t.Errorf("%s: asked %d, ran %v, denied %v (%s)", c.mode, gw.asked, ran, denied, res.Output)
		}
	}
}

// TestDecideLayers: a deny from any layer comes first, then an ask, then
// allow layers, then the mode; a verdict layer (a hook's answer) slots in
// beside the rules: its allow never beats a rule's deny or ask, its deny
// beats a rule's allow.
func TestDecideLayers(t *testing.T) {
	read := approval.CallPlan{Tool: "read_file", Reads: []string{".env"}, ReadOnly: true}
	src := approval.CallPlan{Tool: "read_file", Reads: []string{"src/a.go"}, ReadOnly: true}
	deny := approval.StandingRule{Decision: approval.VerdictDeny, Layer: "user", Access: approval.AccessRead}
	deny.ID, deny.Tool, deny.Files = "env", "*", []string{".env"}
	ask := approval.StandingRule{Decision: approval.VerdictAsk, Layer: "user"}
	ask.ID, ask.Tool, ask.Files = "src", "read_file", []string{"src/**"}
	whole := approval.StandingRule{Decision: approval.VerdictAllow, Layer: "user"}
	whole.ID, whole.Tool = "all", "read_file"
	rules := func(rs ...approval.StandingRule) approval.Layer {
		return approval.Layer{Kind: approval.LayerRules, Source: approval.SourceStanding, Rules: rs}
	}
	hook := func(v approval.Verdict) approval.Layer {
		return approval.Layer{Kind: approval.LayerVerdict, Source: "hook:check", Verdict: v, Why: "the hook says " + string(v)}
	}
	for i, c := range []struct {
		plan   approval.CallPlan
		layers []approval.Layer
		mode   approval.Mode
		want   approval.Verdict
		by     approval.DecidedBy
	}{
		{read, []approval.Layer{rules(deny, whole)}, approval.Auto, approval.VerdictDeny, approval.ByPolicy},
		{read, []approval.Layer{rules(deny), hook(approval.VerdictAllow)}, approval.Auto, approval.VerdictDeny, approval.ByPolicy},
		{src, []approval.Layer{rules(ask, whole)}, approval.Auto, approval.VerdictAsk, approval.ByPolicy},
		{src, []approval.Layer{rules(ask), hook(approval.VerdictAllow)}, approval.Safe, approval.VerdictAsk, approval.ByPolicy},
		{src, []approval.Layer{rules(ask), hook(approval.VerdictDeny)}, approval.Safe, approval.VerdictDeny, approval.ByLayer},
		{src, []approval.Layer{rules(whole), hook(approval.VerdictDeny)}, approval.Safe, approval.VerdictDeny, approval.ByLayer},
		{src, []approval.Layer{rules(whole)}, approval.Manual, approval.VerdictAllow, approval.ByPolicy},
		{src, []approval.Layer{hook(approval.VerdictAllow)}, approval.Manual, approval.VerdictAllow, approval.ByLayer},
		{src, []approval.Layer{hook("")}, approval.Manual, approval.VerdictAsk, approval.ByMode},
		{src, nil, approval.Safe, approval.VerdictAllow, approval.ByMode},
		{src, nil, approval.Plan, approval.VerdictAllow, approval.ByMode},
		{approval.CallPlan{Tool: "write_file", Writes: []string{"a"}}, nil, approval.Plan, approval.VerdictDeny, approval.ByMode},
		{approval.CallPlan{Tool: "write_file", Writes: []string{"a"}}, nil, approval.Safe, approval.VerdictAsk, approval.ByMode},
		{approval.CallPlan{Tool: "write_file", Writes: []string{".env"}}, []approval.Layer{rules(deny)}, approval.Auto, approval.VerdictAllow, approval.ByMode},
		{src, nil, "", approval.VerdictNone, ""},
	} {
		d := approval.Decide(c.plan, c.layers, c.mode)
		if d.Verdict != c.want || d.By != c.by {
			t.Errorf("%d: %q by %q (%s), want %q by %q", i, d.Verdict, d.By, d.Why, c.want, c.by)
		}
	}
}

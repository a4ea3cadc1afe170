// Package steer holds the tools through which the model works with the
// user rather than the workspace: propose_plan (plan mode's last call).
package steer

import (
	"context"
	_ "embed"
	"encoding/json"
	"strings"

	"gatehouse/internal/tools"
)

// ProposePlanName is the tool's name; the runtime offers it in plan mode only.
const ProposePlanName = "propose_plan"

// MaxPlanChars caps a plan: it is shown to the user and sent back to the
// model with the approval.
const MaxPlanChars = 64 << 10

//go:embed propose_plan.md
var proposePlanDescription string

// ProposePlan is the propose_plan tool. It changes nothing: its result
// carries the plan (tools.Result.Plan) and the agent ends the turn there,
// for the user to approve into another mode, revise or reject.
type ProposePlan struct{}

// Spec implements tools.Tool. It only reads: plan mode offers only such
// tools.
func (ProposePlan) Spec() tools.Spec {
	return tools.Spec{Name: ProposePlanName, Description: proposePlanDescription, ReadOnly: true,
		Parameters: json.RawMessage(`{"type":"object","properties":{"plan":{"type":"string","description":"the plan, in Markdown"}},"required":["plan"],"additionalProperties":false}`)}
}

// Run implements tools.Tool.
func (ProposePlan) Run(_ context.Context, args json.RawMessage) (tools.Result, error) {
	var a struct {
		Plan string `json:"plan"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return tools.Fail(tools.CodeInvalidArguments, "propose_plan takes {\"plan\": \"<Markdown>\"}: "+err.Error(), ""), nil
	}
	plan := strings.TrimSpace(a.Plan)
	switch {
	case plan == "":
		return tools.Fail(tools.CodeInvalidArguments, "the plan is empty: write the steps in Markdown", ""), nil
	case len(plan) > MaxPlanChars:
		return tools.Fail(tools.CodeInvalidArguments, "the plan is over 64 KiB: shorten it", ""), nil
	}
	res, err := tools.OK(map[string]any{"status": "proposed", "message": "The plan is shown to the user, who approves, revises or rejects it. Stop here."})
	res.Plan = plan
	return res, err
}

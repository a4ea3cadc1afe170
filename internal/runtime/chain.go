package runtime

import (
	"context"

	"gatehouse/internal/approval"
	"gatehouse/internal/tools"
)

// openGate gives s its gate. A child asks through its parent's: the same
// mode, rules, gateway and approval ids; one working in a folder of its
// own (elsewhere: a teammate in its worktree) has its calls judged in it.
func (s *Session) openGate(o Options, elsewhere bool) {
	if o.Parent != nil {
		s.gw, s.gate = o.Parent.gw, o.Parent.gate
		if elsewhere {
			var watch func([]string, func([]string)) func()
			if s.files != nil {
				watch = s.files.W.OnChange
			}
			s.gate = o.Parent.gate.In(s.ws, watch)
		}
		return
	}
	s.gw, s.ownGateway = o.Gateway(s.id, s.pub), true
	gc := approval.Config{Mode: o.Mode, Gateway: s.gw, Asking: s.askingApproval, Session: s.id, Events: s.pub, Workspace: s.ws, Hook: s.record,
		Prepared: s.markPlan, Standing: o.Standing, Audit: o.Audit, Save: o.Save}
	if s.files != nil {
		gc.Watch = s.files.W.OnChange
	}
	if s.langs != nil {
		gc.Diagnose = s.diagnose
	}
	s.gate = approval.New(gc)
}

// stage is one middleware of the chain, named for tests and the report.
type stage struct {
	name string
	mw   tools.Middleware
}

// Stage names, outermost first, as Session.Stages lists them.
const (
	StageOutputCap  = "output-cap"
	StageBudget     = "budget"
	StageAgent      = "agent-label"
	StageHooks      = "hooks"
	StagePlan       = "plan"
	StageApproval   = "approval"
	StageRecorder   = "file-recorder"
	StageCheckpoint = "checkpoint"
	StageLanguages  = "diagnostics"
)

// chain is every session's middleware, outermost first: the output cap
// sees every result; the budget stage holds a call past the session's
// calls-per-minute limit until its turn (the wait is not the call's); the plan stage prepares a call once (its plan goes
// down the chain in the call); the gate decides from the plan; the
// file-change recorder, inside the gate, sees only the calls that run (the
// time a call waits for the user is not the agent's); the language
// servers compare the diagnostics of an applied edit's files before and
// after it; the checkpoint
// recorder, next to the executor, keeps the prior content of what the plan
// declares it changes.
func (s *Session) chain() []stage {
	out := []stage{{StageOutputCap, tools.OutputCap(OutputCap)}}
	if s.meter != nil {
		out = append(out, stage{StageBudget, s.meter.Middleware})
	}
	if s.agentName != "" {
		out = append(out, stage{StageAgent, labelCalls(s.agentName)})
	}
	if s.hooks != nil {
		// Outside the plan stage: a hook's rewritten input is planned.
		out = append(out, stage{StageHooks, s.hooks.Middleware})
	}
	out = append(out, stage{StagePlan, tools.Plan(s.markPlan)}, stage{StageApproval, s.gate.Middleware},
		stage{StageInstructions, s.touchInstructions})
	if s.files != nil {
		out = append(out, stage{StageRecorder, s.files.T.Middleware(s.ws)})
	}
	if s.langs != nil {
		out = append(out, stage{StageLanguages, s.langs.Middleware})
	}
	if s.undo != nil {
		mw := s.undo.Middleware
		if s.undoTurn != "" {
			mw = underTurn(s.undoTurn, mw)
		}
		out = append(out, stage{StageCheckpoint, mw})
	}
	return out
}

// markPlan lets the undo store mark the files of a plan whose prior
// content it cannot keep (FilePreview.Unrestorable), before it is shown.
func (s *Session) markPlan(p *tools.Prepared) {
	if s.undo != nil {
		s.undo.Mark(p)
	}
}

// labelCalls records the child's agent name in each call's context, for
// the gate to label the approval request with.
func labelCalls(agent string) tools.Middleware {
	return func(_ tools.Tool, next tools.Handler) tools.Handler {
		return func(ctx context.Context, call tools.Call) (tools.Result, error) {
			return next(approval.WithAgent(ctx, agent), call)
		}
	}
}

package runtime

import (
	"context"
	"sync"

	"gatehouse/internal/agent"
	"gatehouse/internal/approval"
	"gatehouse/internal/hooks"
	"gatehouse/internal/tools/steer"
)

// The lifecycle hooks, run by the session whichever host opened it:
// SessionStart when a main session opens (source startup) or resumes
// (resume), SubagentStart when a child opens (agent_type: its agent);
// Stop (a child: SubagentStop) when a turn completed, where a block makes
// the model go on once with the reason as a user message and the next Stop
// input has stop_hook_active; PreCompact before a checkpoint summary
// (trigger manual or auto); Notification when the session asks the user
// (an approval waiting, a question); SessionEnd on Close (reason other).
// A failing hook of these events is reported in the session's log and
// nothing else happens (hooks' contract).

// lifecycle runs the hooks of ev with in and reports those that failed.
func (s *Session) lifecycle(ctx context.Context, ev hooks.Event, in hooks.Input) hooks.Outcome {
	if s.hooks == nil {
		return hooks.Outcome{}
	}
	o := s.hooks.Run(ctx, ev, in, nil)
	for _, r := range o.Ran {
		if r.Failed != "" {
			s.logger.Warn("a hook failed; the session goes on", "event", string(ev), "hook", r.Name, "failed", r.Failed, "stderr", r.Stderr)
		}
	}
	return o
}

// startHooks runs SessionStart (a main session) or SubagentStart (a
// child); context a hook adds reaches the model with its next request.
func (s *Session) startHooks(resumed bool) {
	if s.hooks == nil {
		return
	}
	var o hooks.Outcome
	if s.parent == nil {
		src := "startup"
		if resumed {
			src = "resume"
		}
		o = s.lifecycle(context.Background(), hooks.SessionStart, hooks.Input{Source: src})
	} else {
		o = s.lifecycle(context.Background(), hooks.SubagentStart, hooks.Input{AgentID: s.id, AgentType: s.agentName})
	}
	if o.Context == "" {
		return
	}
	var once sync.Once
	s.AddNotes(func() (out []string) {
		once.Do(func() { out = []string{"<hook-context>\n" + o.Context + "\n</hook-context>"} })
		return out
	})
}

// afterTurn runs the Stop hooks (a child's: SubagentStop) on a completed
// turn: a block asks the model to go on with the hooks' reason.
func (s *Session) afterTurn(ctx context.Context, _ agent.Outcome, again bool) (agent.Prompt, bool) {
	ev, in := hooks.Stop, hooks.Input{StopHookActive: &again}
	if s.parent != nil {
		ev, in.AgentID, in.AgentType = hooks.SubagentStop, s.id, s.agentName
	}
	if s.hooks == nil {
		return agent.Prompt{}, false
	}
	o := s.lifecycle(ctx, ev, in)
	if !o.Blocked || again || o.Stop {
		return agent.Prompt{}, false
	}
	return agent.Prompt{Text: "A Stop hook asks you to go on:\n" + o.Reason}, true
}

// beforeCompact runs the PreCompact hooks.
func (s *Session) beforeCompact(ctx context.Context, manual bool) {
	trigger := "auto"
	if manual {
		trigger = "manual"
	}
	s.lifecycle(ctx, hooks.PreCompact, hooks.Input{Trigger: trigger})
}

// endHooks runs SessionEnd for a main session.
func (s *Session) endHooks() {
	if s.parent == nil {
		s.lifecycle(context.Background(), hooks.SessionEnd, hooks.Input{Reason: "other"})
	}
}

// notify runs the Notification hooks with message, without holding up
// the question: the hooks run beside it.
func (s *Session) notify(message string) {
	if s.hooks == nil {
		return
	}
	go s.lifecycle(context.Background(), hooks.Notification, hooks.Input{Message: message})
}

// askingApproval runs the Notification hooks when an approval waits: the
// gate calls it beside the gateway (approval.Config.Asking).
func (s *Session) askingApproval(req approval.Request) {
	s.watchApproval(req)
	who := "Gatehouse"
	if req.Agent != "" {
		who = "Subagent " + req.Agent
	}
	s.notify(who + " needs your permission to use " + req.Tool)
}

// askingUser runs the Notification hooks when the model asks the user
// (steer.AskUser.Asking).
func (s *Session) askingUser(q steer.Question) {
	s.notify("Gatehouse asks you: " + q.Question)
}

// hookWrites brackets a hook's run (hooks.Runner.Writes): what changes
// meanwhile is the agent's, as a command's writes are, recorded for undo
// in the turn of ctx (a formatter hook's rewrite is undone with the turn).
func (s *Session) hookWrites(ctx context.Context) func() {
	if s.undo != nil {
		s.undo.CommandRuns(ctx)
	}
	if s.files != nil {
		return s.files.T.ShellStarted()
	}
	return func() {}
}

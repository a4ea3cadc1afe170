package agents

import (
	"fmt"
	"strings"

	"gatehouse/internal/agent"
	"gatehouse/internal/events"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime"
	"gatehouse/internal/tools"
	"gatehouse/internal/workspace"
)

// childSpec is what a child session is opened with beside its definition.
type childSpec struct {
	// Label names the child in its approval requests and events.
	Label string
	// ParentCallID is the parent's call its events are told under.
	ParentCallID string
	// Teammate, when set, tags the child's events (and its children's)
	// with the teammate's name.
	Teammate string
	// Observe hears each of the child's events first (nil: none).
	Observe func(protocol.Event)
	// Extra are providers only this child gets; Allow names tools the
	// child may use even when its definition lists others (a teammate's
	// team tools).
	Extra []tools.Provider
	Allow []string
	// MaxSteps bounds each of its turns (0: the definition's).
	MaxSteps int
	// Workspace is the boundary its tools go through (nil: the parent's).
	// Another folder (a worktree) gets its own watch, and its commands the
	// sandbox's grant of that folder.
	Workspace *workspace.Workspace
}

// model is the model definition d names, or the parent's.
func (m *Manager) model(d Definition) (agent.Model, error) {
	if d.Model == "" {
		return m.parent.Model(), nil
	}
	if m.cfg.Models == nil {
		return nil, fmt.Errorf("agent %s asks for model %s, which this host cannot give", d.Name, d.Model)
	}
	model, err := m.cfg.Models(d.Model)
	if err != nil {
		return nil, fmt.Errorf("agent %s: model %s: %w", d.Name, d.Model, err)
	}
	return model, nil
}

// open builds a child session of definition d: its events go to the
// parent's stream under the parent's call, its surface is the parent's
// providers (each ChildProvider's copy for it; one whose copy is nil is
// left out) and extra, filtered by d's policy within the parent's, and it
// asks through the parent's gate, hooks and budget. It gets its own
// Manager (it may delegate within the depth limit).
func (m *Manager) open(d Definition, model agent.Model, cs childSpec) (*runtime.Session, error) {
	pub := m.parent.Publisher()
	sink := events.SinkFunc(func(e protocol.Event) {
		if cs.Observe != nil {
			cs.Observe(e)
		}
		if e.ParentCallID == "" { // a grandchild's events keep their own
			e.ParentCallID, e.Agent = cs.ParentCallID, cs.Label
		}
		if cs.Teammate != "" {
			e.Teammate = cs.Teammate
		}
		e.Seq = 0
		pub.Publish(e)
	})
	// The parent's other providers (MCP servers, a Go caller's tools) join
	// the child's surface; the policy then keeps what the child may use.
	var providers []tools.Provider
	for _, p := range m.parent.Providers() {
		if c, ok := p.(ChildProvider); ok {
			if p = c.ForChild(); p == nil {
				continue
			}
		}
		if p.Name() != ProviderName {
			providers = append(providers, p)
		}
	}
	providers = append(providers, cs.Extra...)
	policy := d.Policy()
	if policy.Allowed != nil {
		for _, n := range cs.Allow {
			policy.Allowed[n] = true
		}
	}
	steps := d.MaxSteps
	if cs.MaxSteps > 0 {
		steps = cs.MaxSteps
	}
	files, ws := m.parent.Files(), m.parent.Workspace()
	noWatch := files == nil
	if cs.Workspace != nil && cs.Workspace.Root() != ws.Root() {
		// The parent's watch sees the parent's folder only: the child
		// watches its own (unless the parent watches nothing).
		ws, files = cs.Workspace, nil
	}
	sess, err := runtime.New(runtime.Options{Providers: providers,
		Workspace: ws, Model: model, Parent: m.parent, Agent: cs.Label,
		Policy: policy, Sink: sink, Files: files, NoWatch: noWatch,
		Instructions: d.Prompt, MaxSteps: steps, Processes: m.cfg.Processes, AgentHooks: m.childHooks(d),
	})
	if err != nil {
		return nil, err
	}
	if _, err := Attach(sess, Config{Definitions: m.Definitions(), MaxDepth: m.cfg.MaxDepth,
		Models: m.cfg.Models, Processes: m.cfg.Processes, HookTrust: m.cfg.HookTrust}); err != nil {
		sess.Close()
		return nil, err
	}
	return sess, nil
}

// TeammateSpec is a long-lived child session a team runs: opened by
// OpenTeammate, it runs as many turns as the team gives it, and its owner
// closes it.
type TeammateSpec struct {
	// Agent is the definition to run; Name the teammate's name (its label
	// and its events' teammate tag); CallID the parent's call that spawned
	// it (its events' parentCallId).
	Agent, Name, CallID string
	// Extra are the team's tools for it; Allow their names (kept whatever
	// the definition's tool list says).
	Extra []tools.Provider
	Allow []string
	// MaxSteps bounds each of its turns (0: the definition's).
	MaxSteps int
	// Observe hears each of its events first (nil: none).
	Observe func(protocol.Event)
	// Workspace binds its tools, commands and sandbox grant to another
	// folder than the manager's session's (its own worktree); nil: the
	// session's.
	Workspace *workspace.Workspace
}

// OpenTeammate opens a teammate's session: a child of the manager's
// session under its gate, hooks and budget, with definition spec.Agent's
// tools (filtered as a child's) and spec.Extra. The caller runs its turns
// and closes it; the manager's session's Close does not.
func (m *Manager) OpenTeammate(spec TeammateSpec) (*runtime.Session, error) {
	d, names, ok := m.definition(spec.Agent)
	if !ok {
		return nil, fmt.Errorf("unknown agent %q; agents: %s", spec.Agent, strings.Join(names, ", "))
	}
	model, err := m.model(d)
	if err != nil {
		return nil, err
	}
	return m.open(d, model, childSpec{Label: m.label(spec.Name), ParentCallID: spec.CallID, Teammate: spec.Name,
		Observe: spec.Observe, Extra: spec.Extra, Allow: spec.Allow, MaxSteps: spec.MaxSteps, Workspace: spec.Workspace})
}

// ReadsOnly reports whether agent name can only read (its tools say so):
// starting it only reads.
func (m *Manager) ReadsOnly(name string) bool {
	d, _, ok := m.definition(name)
	return ok && readsOnly(d)
}

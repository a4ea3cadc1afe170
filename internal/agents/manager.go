package agents

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"gatehouse/internal/agent"
	"gatehouse/internal/proc"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime"
	"gatehouse/internal/session"
	"gatehouse/internal/tools"
)

// DefaultMaxDepth is how deep children may nest: a main session's child
// (depth 1) may delegate once more (depth 2), that one no further.
const DefaultMaxDepth = 2

// Config is what a Manager needs beyond its session.
type Config struct {
	// Definitions are the agents offered (Load's result).
	Definitions []Definition
	// MaxDepth limits nesting (zero: DefaultMaxDepth).
	MaxDepth int
	// Models returns the model a definition names (nil: a definition with
	// a model fails to start).
	Models func(name string) (agent.Model, error)
	// Processes configures each child's process registry.
	Processes proc.Options
}

// Manager runs the children of one session and offers the tools that
// start them. Attach creates it; the session's Close stops every child.
type Manager struct {
	parent *runtime.Session
	cfg    Config

	dmu   sync.RWMutex // guards defs and names (SetDefinitions)
	defs  map[string]Definition
	names []string

	mu       sync.Mutex
	children map[string]*Child
	order    []string
	seq      int
	notes    []string
	closed   bool
	wg       sync.WaitGroup
}

// ProviderName names the manager's tools on the surface.
const ProviderName = "agents"

// ChildProvider is a provider whose child sessions get their own copy of
// it rather than itself: the skills catalog, whose record of what was
// loaded is each session's own. A nil copy leaves it out of children (a
// team's lead-only tools).
type ChildProvider interface {
	ForChild() tools.Provider
}

// Attach adds the agent tools to s (none beyond the depth limit), the
// delivery of background results to its next model request, and the
// stopping of its children to its Close.
func Attach(s *runtime.Session, cfg Config) (*Manager, error) {
	if cfg.MaxDepth == 0 {
		cfg.MaxDepth = DefaultMaxDepth
	}
	m := &Manager{parent: s, cfg: cfg, children: map[string]*Child{}}
	m.SetDefinitions(cfg.Definitions)
	if s.Depth() < cfg.MaxDepth {
		if err := s.AddProvider(provider{m}); err != nil {
			return nil, err
		}
	}
	s.AddNotes(m.takeNotes)
	s.OnClose(m.Close)
	return m, nil
}

// SetDefinitions replaces the agents offered; the session's next model
// request offers delegate_<name> for each (children already running keep
// theirs).
func (m *Manager) SetDefinitions(defs []Definition) {
	byName := map[string]Definition{}
	names := []string{}
	for _, d := range defs {
		if _, dup := byName[d.Name]; !dup {
			names = append(names, d.Name)
		}
		byName[d.Name] = d
	}
	sort.Strings(names)
	m.dmu.Lock()
	m.defs, m.names = byName, names
	m.dmu.Unlock()
}

// definition returns agent name's definition and the names offered.
func (m *Manager) definition(name string) (Definition, []string, bool) {
	m.dmu.RLock()
	defer m.dmu.RUnlock()
	d, ok := m.defs[name]
	return d, m.names, ok
}

// Definitions are the agents the manager offers, sorted by name.
func (m *Manager) Definitions() []Definition {
	m.dmu.RLock()
	defer m.dmu.RUnlock()
	out := make([]Definition, 0, len(m.names))
	for _, n := range m.names {
		out = append(out, m.defs[n])
	}
	return out
}

// Children lists the children of the session, oldest first.
func (m *Manager) Children() []ChildInfo {
	m.mu.Lock()
	cs := make([]*Child, 0, len(m.order))
	for _, id := range m.order {
		cs = append(cs, m.children[id])
	}
	m.mu.Unlock()
	out := make([]ChildInfo, len(cs))
	for i, c := range cs {
		out[i] = c.Info()
	}
	return out
}

// label is how the child's approval requests name it.
func (m *Manager) label(name string) string {
	if p := m.parent.Agent(); p != "" {
		return p + " › " + name
	}
	return name
}

// spawn builds a child session of agent name for the call parentCallID.
// extra are providers only this child gets (a review's findings tool).
func (m *Manager) spawn(name, task, parentCallID string, background bool, extra ...tools.Provider) (*Child, error) {
	d, names, ok := m.definition(name)
	if !ok {
		return nil, fmt.Errorf("unknown agent %q; agents: %s", name, strings.Join(names, ", "))
	}
	model, err := m.model(d)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	m.seq++
	c := &Child{ID: fmt.Sprintf("agent-%d", m.seq), Agent: name, Task: task, ParentCallID: parentCallID,
		Background: background, done: make(chan struct{})}
	m.mu.Unlock()
	if background {
		c.ctx, c.cancel = context.WithCancel(context.Background())
	}

	sess, err := m.open(d, model, childSpec{Label: m.label(name), ParentCallID: parentCallID, Observe: c.observe, Extra: extra})
	if err != nil {
		return nil, err
	}
	c.sess = sess
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		sess.Close()
		if c.cancel != nil {
			c.cancel()
		}
		return nil, fmt.Errorf("the session is closing")
	}
	if background {
		m.wg.Add(1)
	}
	m.children[c.ID] = c
	m.order = append(m.order, c.ID)
	m.mu.Unlock()
	return c, nil
}

// run runs the child's one turn to its end under ctx, then closes it (its
// processes are killed) and saves it in the parent's log.
func (m *Manager) run(ctx context.Context, c *Child, prompt string) agent.Outcome {
	out, err := c.sess.Run(ctx, prompt)
	if err != nil {
		out = agent.Outcome{Reason: protocol.StopError, Err: err}
	}
	items := c.sess.Snapshot().Transcript
	c.sess.Close()
	c.mu.Lock()
	c.out, c.ended, c.items = out, true, items
	c.mu.Unlock()
	info := c.Info()
	_ = m.parent.AppendRecord(session.RecordChild, info)
	close(c.done)
	return out
}

// Delegate runs agent name's child on text to its end under ctx, for the
// parent's call parentCallID, and reports it (as delegate_<name> does).
func (m *Manager) Delegate(ctx context.Context, name, text, parentCallID string) (ChildInfo, error) {
	c, err := m.spawn(name, text, parentCallID, false)
	if err != nil {
		return ChildInfo{}, err
	}
	m.run(ctx, c, text)
	return c.Info(), nil
}

// DelegateWith runs agent name's child on text to its end under ctx, as
// Delegate does, with the tools of extra on its surface besides those its
// parent has (a review's findings tool). It fails before the child starts
// when the child's policy leaves out one of extra's tools.
func (m *Manager) DelegateWith(ctx context.Context, name, text, parentCallID string, extra ...tools.Provider) (ChildInfo, error) {
	c, err := m.spawn(name, text, parentCallID, false, extra...)
	if err != nil {
		return ChildInfo{}, err
	}
	offered := map[string]bool{}
	for _, s := range c.sess.Specs() {
		offered[s.Name] = true
	}
	for _, p := range extra {
		for _, t := range p.Tools() {
			if n := t.Spec().Name; !offered[n] {
				m.forget(c)
				return ChildInfo{}, fmt.Errorf("agent %s is not given the tool %s (its definition's tools or the session's leave it out)", name, n)
			}
		}
	}
	m.run(ctx, c, text)
	return c.Info(), nil
}

// forget closes a child that never ran and takes it off the list.
func (m *Manager) forget(c *Child) {
	c.sess.Close()
	m.mu.Lock()
	delete(m.children, c.ID)
	if i := indexOf(m.order, c.ID); i >= 0 {
		m.order = append(m.order[:i], m.order[i+1:]...)
	}
	m.mu.Unlock()
}

func prompt(task, context string) string {
	if strings.TrimSpace(context) == "" {
		return task
	}
	return task + "\n\nContext from the agent that delegated this task:\n" + context
}

// child returns the child id.
func (m *Manager) child(id string) (*Child, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.children[id]
	return c, ok
}

// Stop stops a background child and waits for it to end.
func (m *Manager) Stop(id string) (ChildInfo, error) {
	c, ok := m.child(id)
	if !ok {
		return ChildInfo{}, fmt.Errorf("no subagent %q", id)
	}
	if !c.Background {
		return c.Info(), fmt.Errorf("%s is not a background subagent: it ends with the call that started it", id)
	}
	if c.cancel != nil { // nil: restored, ended
		c.cancel()
	}
	<-c.done
	return c.Info(), nil
}

// takeNotes hands the next model request the results of background
// children that ended since, unless the model already read them.
func (m *Manager) takeNotes() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := m.notes
	m.notes = nil
	return out
}

// backgroundEnded queues the note of a background child's end.
func (m *Manager) backgroundEnded(c *Child) {
	c.mu.Lock()
	if c.delivered {
		c.mu.Unlock()
		return
	}
	c.delivered = true
	c.mu.Unlock()
	info := c.Info()
	note := fmt.Sprintf("[subagent %s (%s) ended: %s]", info.ID, info.Agent, info.Status)
	if info.Blocked != nil {
		note += fmt.Sprintf(" The user rejected its %s call", info.Blocked.Tool)
		if info.Blocked.Note != "" {
			note += ": " + info.Blocked.Note
		}
		note += "."
	}
	if info.Error != "" {
		note += " Error: " + info.Error
	}
	if info.Answer != "" {
		note += "\n" + info.Answer
	}
	m.mu.Lock()
	m.notes = append(m.notes, note)
	m.mu.Unlock()
}

// Close stops every running child and waits for them; the session's Close
// calls it first.
func (m *Manager) Close() {
	m.mu.Lock()
	m.closed = true
	var cs []*Child
	for _, c := range m.children {
		cs = append(cs, c)
	}
	m.mu.Unlock()
	for _, c := range cs {
		if c.cancel != nil {
			c.cancel()
		}
	}
	m.wg.Wait()
}

// Restore lists the children saved in a resumed session's log, as ended
// (one still running when the log stopped reads as cancelled).
func (m *Manager) Restore(past *session.Loaded) {
	if past == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, rec := range past.Records {
		if rec.Type != session.RecordChild {
			continue
		}
		var ci ChildInfo
		if err := json.Unmarshal(rec.Data, &ci); err != nil || ci.ID == "" {
			continue
		}
		if ci.Status == "running" {
			ci.Status = string(protocol.StopCancelled)
		}
		c := &Child{ID: ci.ID, Agent: ci.Agent, Task: ci.Task, ParentCallID: ci.ParentCallID, Background: ci.Background,
			done: make(chan struct{}), answer: ci.Answer, toolCalls: ci.ToolCalls, ended: true, delivered: true, items: ci.Items,
			out: agent.Outcome{Reason: protocol.StopReason(ci.Status), Usage: ci.Usage, Blocked: ci.Blocked}}
		close(c.done)
		m.parent.RestoreChild(ci.ParentCallID, protocol.ChildTranscript{Agent: m.label(ci.Agent), Items: ci.Items})
		if _, dup := m.children[c.ID]; !dup {
			m.order = append(m.order, c.ID)
		}
		m.children[c.ID] = c
		var n int
		if _, err := fmt.Sscanf(c.ID, "agent-%d", &n); err == nil && n > m.seq {
			m.seq = n
		}
	}
}

var _ tools.Provider = provider{}

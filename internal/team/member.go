package team

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"

	"gatehouse/internal/agent"
	"gatehouse/internal/agents"
	"gatehouse/internal/approval"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime"
	"gatehouse/internal/tools"
	"gatehouse/internal/workspace"
)

// member is one teammate. info, inbox and wakesSince are guarded by the
// team's lock; sess is set before the loop starts and changed only by it.
type member struct {
	info       protocol.Teammate
	inbox      []protocol.TeamMessage
	wakesSince int
	// last is what it said last (its last answer), for a fresh session.
	last string

	sess *runtime.Session
	// ws is its own worktree's boundary (nil: the lead's workspace).
	ws     *workspace.Workspace
	ctx    context.Context
	cancel context.CancelFunc
	wake   chan struct{} // one pending wake
	done   chan struct{} // closed when its loop ended
}

var memberName = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,31}$`)

// spawn starts teammate name of agent on task, for the lead's call callID;
// with inWorktree, in a worktree of its own (worktreeFor).
func (t *Team) spawn(ctx context.Context, name, agentName, task, callID string, inWorktree bool) (protocol.Teammate, error) {
	if !memberName.MatchString(name) || name == protocol.TeamLead || name == protocol.TeamAll {
		return protocol.Teammate{}, fmt.Errorf("name %q: use lower-case letters, digits, - and _ (up to 32), not %q or %q", name, protocol.TeamLead, protocol.TeamAll)
	}
	if strings.TrimSpace(task) == "" {
		return protocol.Teammate{}, fmt.Errorf("task is empty")
	}
	m := &member{info: protocol.Teammate{Name: name, Agent: agentName, Task: task, CallID: callID, State: protocol.TeammateWorking},
		wake: make(chan struct{}, 1), done: make(chan struct{})}
	m.ctx, m.cancel = context.WithCancel(context.Background())
	t.mu.Lock()
	if err := t.admitLocked(name); err != nil {
		t.mu.Unlock()
		m.cancel()
		return protocol.Teammate{}, err
	}
	t.members[name] = m // held: no second spawn of the name
	t.order = append(t.order, name)
	t.mu.Unlock()
	var err error
	if inWorktree {
		err = t.worktreeFor(ctx, m)
	}
	var sess *runtime.Session
	if err == nil {
		sess, err = t.open(m)
	}
	t.mu.Lock()
	if err == nil && t.closed {
		sess.Close()
		err = fmt.Errorf("the session is closing")
	}
	if err != nil {
		delete(t.members, name)
		if i := slices.Index(t.order, name); i >= 0 {
			t.order = slices.Delete(t.order, i, i+1)
		}
		t.mu.Unlock()
		m.cancel()
		close(m.done)
		return protocol.Teammate{}, err
	}
	m.sess = sess
	m.info.SessionID = sess.ID()
	info := m.info
	t.wg.Add(1)
	t.changedLocked()
	t.mu.Unlock()
	t.publish(protocol.TeamTeammate, info)
	go t.loop(m, t.firstPrompt(m))
	return info, nil
}

// admitLocked refuses a name taken or a team already full. t.mu is held.
func (t *Team) admitLocked(name string) error {
	if t.closed {
		return fmt.Errorf("the session is closing")
	}
	if _, dup := t.members[name]; dup {
		return fmt.Errorf("a teammate is already named %s", name)
	}
	running := 0
	for _, m := range t.members {
		if m.info.State != protocol.TeammateStopped {
			running++
		}
	}
	if running >= t.lim.MaxTeammates {
		return fmt.Errorf("the team is full: %d teammates run, the most the settings allow (teams: max teammates); stop one first", running)
	}
	return nil
}

// open opens m's session: a child of the lead with the member tools (in
// its worktree when it has one).
func (t *Team) open(m *member) (*runtime.Session, error) {
	name := m.info.Name
	if m.ws == nil && m.info.Worktree != "" { // restored
		if _, err := os.Stat(m.info.Worktree); err != nil {
			return nil, fmt.Errorf("its worktree %s is gone", m.info.Worktree)
		}
		ws, err := t.lead.Workspace().WithRoot(m.info.Worktree)
		if err != nil {
			return nil, err
		}
		m.ws = ws
	}
	sess, err := t.agents.OpenTeammate(agents.TeammateSpec{Agent: m.info.Agent, Name: name, CallID: m.info.CallID,
		Extra: []tools.Provider{memberProvider{t, name}}, Allow: memberTools, MaxSteps: t.lim.MaxSteps,
		Observe: func(e protocol.Event) { t.observe(m, e) }, Workspace: m.ws})
	if err != nil {
		return nil, err
	}
	sess.AddNotes(func() []string { return t.takeInbox(m) })
	return sess, nil
}

// firstPrompt is a teammate's first turn: who it is, how the team works,
// its task (and, for one restored, what it said last).
func (t *Team) firstPrompt(m *member) string {
	t.mu.Lock()
	var others []string
	for _, n := range t.order {
		if n != m.info.Name {
			others = append(others, n)
		}
	}
	last := m.last
	t.mu.Unlock()
	team := "none yet"
	if len(others) > 0 {
		team = strings.Join(others, ", ")
	}
	p := fmt.Sprintf("You are %s, a teammate in an agent team. The lead (\"lead\") gave you a task; your teammates: %s. "+
		"Use team_message to tell the lead or a teammate what they need (\"all\" reaches everyone), team_tasks to read the shared board, "+
		"and team_task_update to take a task (owner), say how it goes and mark it done. When you have done what you can, or must wait "+
		"for someone, end your turn: a message wakes you.\n\nYour task:\n%s", m.info.Name, team, m.info.Task)
	if last != "" {
		p += "\n\nThe session was resumed; what you said last:\n" + last
	}
	return p
}

// wakePrompt is the prompt of a turn a message starts.
const wakePrompt = "[team] New messages for you (below). Act on them, then end your turn."

// loop runs m's turns: the first (none for a restored teammate: "" waits
// for a wake), then one per wake, until it is stopped.
func (t *Team) loop(m *member, prompt string) {
	defer t.wg.Done()
	defer close(m.done)
	defer func() {
		if m.sess != nil {
			m.sess.Close()
		}
	}()
	if prompt == "" && !t.await(m) {
		return
	}
	for {
		if m.sess == nil { // restored: a fresh session on its first wake
			sess, err := t.open(m)
			if err != nil {
				t.stopped(m, "its session could not be opened: "+err.Error())
				return
			}
			m.sess = sess
			t.mu.Lock()
			m.info.SessionID = sess.ID()
			t.mu.Unlock()
			prompt = t.firstPrompt(m)
		}
		out, err := m.sess.Run(m.ctx, prompt)
		if err != nil {
			out = agent.Outcome{Reason: protocol.StopError, Err: err}
		}
		t.saveMember(m)
		if m.ctx.Err() != nil {
			return // stop sets its state
		}
		if out.Reason == protocol.StopBudgetExhausted {
			go t.budgetStop() // it waits for this loop to end
			return
		}
		if t.idle(m, out) && !t.await(m) {
			return
		}
		prompt = wakePrompt
	}
}

// await waits for a wake of m; false when it was stopped.
func (t *Team) await(m *member) bool {
	select {
	case <-m.wake:
		return true
	case <-m.ctx.Done():
		return false
	}
}

// idle ends m's turn: it goes idle, unless unread messages wake it at
// once. It tells the lead how a turn that did not complete stopped.
func (t *Team) idle(m *member, out agent.Outcome) bool {
	defer t.flush()
	t.mu.Lock()
	defer t.mu.Unlock()
	m.info.Turns++
	m.info.Reason, m.info.ApprovalID = string(out.Reason), ""
	switch out.Reason {
	case protocol.StopBlockedByApproval:
		why := "the user rejected a call"
		if out.Blocked != nil {
			why = "the user rejected its " + out.Blocked.Tool + " call"
			if out.Blocked.Note != "" {
				why += ": " + out.Blocked.Note
			}
		}
		m.info.Reason = why
		t.leadInbox = append(t.leadInbox, fmt.Sprintf("[team] %s's turn stopped: %s.", m.info.Name, why))
	case protocol.StopMaxSteps:
		t.leadInbox = append(t.leadInbox, fmt.Sprintf("[team] %s's turn stopped at its step limit.", m.info.Name))
	case protocol.StopError:
		if out.Err != nil {
			m.info.Reason = "error: " + out.Err.Error()
		}
		t.leadInbox = append(t.leadInbox, fmt.Sprintf("[team] %s's turn failed: %s.", m.info.Name, m.info.Reason))
	}
	again := len(m.inbox) > 0 && t.mayWakeLocked(m)
	if !again {
		m.info.State = protocol.TeammateIdle
	}
	info := m.info
	t.changedLocked()
	t.emitLocked(protocol.TeamTeammate, info)
	if !again {
		t.checkWaitsLocked()
		t.wakeLeadLocked(false)
	}
	return !again
}

// mayWakeLocked counts a wake of m within the cap; past it, a notice says
// m stays asleep. t.mu is held.
func (t *Team) mayWakeLocked(m *member) bool {
	if m.wakesSince >= t.lim.MaxWakes {
		if m.wakesSince == t.lim.MaxWakes {
			m.wakesSince++ // told once
			t.noticeLocked(protocol.TeamNotice{Kind: protocol.NoticeCap, Names: []string{m.info.Name},
				Text: fmt.Sprintf("%s was not woken: messages woke it %d times since your last prompt, the cap (teams: max wakes). Its messages wait for it.", m.info.Name, t.lim.MaxWakes)})
		}
		return false
	}
	m.wakesSince++
	m.info.Wakes++
	m.info.State = protocol.TeammateWorking
	return true
}

// deliverLocked puts msg in member m's inbox, waking it when idle. t.mu
// is held.
func (t *Team) deliverLocked(m *member, msg protocol.TeamMessage) {
	if m.info.State == protocol.TeammateStopped {
		return
	}
	m.inbox = append(m.inbox, msg)
	if m.info.State == protocol.TeammateIdle && t.mayWakeLocked(m) {
		info := m.info
		t.changedLocked()
		t.emitLocked(protocol.TeamTeammate, info)
		select {
		case m.wake <- struct{}{}:
		default:
		}
	}
}

// takeInbox hands m's next model request its unread messages.
func (t *Team) takeInbox(m *member) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]string, 0, len(m.inbox))
	for _, msg := range m.inbox {
		out = append(out, fmt.Sprintf("[team message from %s to %s]\n%s", msg.From, msg.To, msg.Text))
	}
	m.inbox = nil
	return out
}

// observe follows m's events: its last answer, and its calls running again
// after it waited for the user.
func (t *Team) observe(m *member, e protocol.Event) {
	switch p := e.Payload.(type) {
	case protocol.MessageDonePayload:
		if e.ParentCallID == "" && strings.TrimSpace(p.Text) != "" {
			t.mu.Lock()
			m.last = p.Text
			t.mu.Unlock()
		}
	case protocol.ToolStartedPayload, protocol.ToolFinishedPayload:
		t.setState(m, protocol.TeammateWaiting, protocol.TeammateWorking, "")
	}
}

// asking marks the teammate whose call (or whose child's) asks the user
// as waiting for them.
func (t *Team) asking(req approval.Request) {
	name, _, _ := strings.Cut(req.Agent, " › ")
	t.mu.Lock()
	m, ok := t.members[name]
	t.mu.Unlock()
	if ok && req.Agent != "" {
		t.setState(m, protocol.TeammateWorking, protocol.TeammateWaiting, req.ApprovalID)
	}
}

// setState moves m from state from to state to, and tells.
func (t *Team) setState(m *member, from, to protocol.TeammateState, approvalID string) {
	t.mu.Lock()
	if m.info.State != from {
		t.mu.Unlock()
		return
	}
	m.info.State, m.info.ApprovalID = to, approvalID
	t.emitLocked(protocol.TeamTeammate, m.info)
	t.changedLocked()
	t.mu.Unlock()
	t.flush()
}

// stop stops teammate name (its turn is cancelled, its processes killed)
// and waits for it; why is said in its state. It fails for a teammate
// already stopped.
func (t *Team) stop(name, why string) (protocol.Teammate, error) {
	t.mu.Lock()
	m, ok := t.members[name]
	if ok && m.info.State == protocol.TeammateStopped {
		t.mu.Unlock()
		return m.info, fmt.Errorf("%s was already stopped (%s)", name, m.info.Reason)
	}
	t.mu.Unlock()
	if !ok {
		return protocol.Teammate{}, fmt.Errorf("no teammate %q", name)
	}
	m.cancel()
	<-m.done
	return t.stopped(m, why), nil
}

// stopped marks m stopped for why (kept if it already was).
func (t *Team) stopped(m *member, why string) protocol.Teammate {
	t.mu.Lock()
	if m.info.State != protocol.TeammateStopped {
		m.info.State, m.info.Reason, m.info.ApprovalID = protocol.TeammateStopped, why, ""
		m.inbox = nil
		t.changedLocked()
		info := m.info
		t.saveLocked(recordMember, memberRecord{Teammate: info, Last: m.last})
		t.emitLocked(protocol.TeamTeammate, info)
		t.mu.Unlock()
		t.flush()
		return info
	}
	info := m.info
	t.mu.Unlock()
	return info
}

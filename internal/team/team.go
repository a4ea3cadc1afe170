// Package team runs agent teams (experimental, off until a session turns
// them on): the session the user talks to is the lead; it spawns teammates,
// long-lived child sessions of agent definitions, which share one board of
// tasks and send each other and the lead messages.
//
// # One gate for all
//
// A teammate is a child session of the lead (agents.OpenTeammate): every
// call it makes passes the lead's gate, mode, rules, hooks and budget, its
// approval requests named with it ("reviewer › apply_patch"), its tools
// filtered by its definition's policy within the lead's. A rejection stops
// that teammate's turn only; the lead hears of it with its next request.
//
// # A teammate in its own worktree
//
// team_spawn with worktree makes the teammate a worktree session of the
// lead's repository (internal/worktree): team-<name> on branch
// gatehouse/team-<name>, from the current branch, beside the repository,
// with the untracked files the settings' worktreeCopy names copied in
// (CopyIntoWorktrees); one already there (an earlier teammate of that
// name) is taken as it is.
// git runs in safe mode unless the user trusts the repository's git
// settings (TrustGit): no hook, fsmonitor, filter or alias of an untrusted
// repository runs. Its file tools, commands, watch and sandbox grant are
// bound to the worktree; its calls pass the lead's gate (the same mode,
// session rules, standing policy and dialogs), which draws its commands
// against the worktree (approval.Gate.In): a path there is inside. Its changes
// are not in the lead's undo: the worktree is theirs. Stopping it or
// closing the session keeps the worktree and its branch, as closing a
// worktree session's window does: nothing is removed until the user ends
// it (merge, keep or discard, in the Worktrees view or `gatehouse
// worktree`). A resumed teammate reopens in it (gone: it cannot be woken).
//
// # Messages and wakes
//
// A message reaches an idle teammate by waking it (a turn whose notes carry
// the message), a working one with its next model request. A message to the
// lead reaches it with its next request, or, when the lead is idle, wakes
// it (a turn of its own, not the user's: no UserPromptSubmit hook runs).
// Between two of the user's prompts the team may send MaxMessages messages
// and wake each member MaxWakes times; past a cap the message is refused (the
// sender reads why) or the member stays asleep, and a notice says so, in
// the lead's notes and the window.
//
// # Bounds and ends
//
// At most MaxTeammates teammates run (stopped ones do not count). A member
// whose idle teammates all wait on each other's tasks (the board's
// dependencies) is a mutual wait: told to the lead once per loop. The
// budget stopping any member's turn stops every teammate. The lead's Close
// stops every teammate (their processes are killed with their sessions)
// and waits for them: nothing is left running.
//
// A resumed session gets its board, messages and teammates back, each
// teammate idle with its transcript; a message wakes it in a fresh session
// that is told its task and what it said last.
package team

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"gatehouse/internal/agent"
	"gatehouse/internal/agents"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime"
	"gatehouse/internal/settings"
)

// Team is one lead session's team. Its methods are safe for concurrent use.
type Team struct {
	lead   *runtime.Session
	agents *agents.Manager
	lim    settings.Teams

	mu       sync.Mutex
	members  map[string]*member
	order    []string
	board    board
	messages []protocol.TeamMessage
	notices  []protocol.TeamNotice
	msgSeq   int
	// sent counts messages since the user's last prompt; leadWakes the
	// lead's wakes since then.
	sent      int
	leadWakes int
	// woken: a turn the team started for the lead has not read its inbox
	// yet (it reads all of it, so no second wake is needed).
	woken bool
	// leadInbox are messages and notices the lead has not read.
	leadInbox []string
	// told are the mutual waits already reported, by their line.
	told   map[string]bool
	closed bool
	// changed is closed and replaced at every change of a member's state
	// (Quiet waits on it).
	changed chan struct{}
	wg      sync.WaitGroup
	// outbox are the events told under mu, published in order by flush
	// (under pubMu, without mu: a host's sink never runs under the team's
	// lock).
	outbox []protocol.Event
	pubMu  sync.Mutex
	// gitTrust says whether the repository's git settings are trusted
	// (nil: never; see TrustGit).
	gitTrust func(top string) func() bool
	// worktreeCopy lists the untracked files copied into a new worktree
	// (nil: none; see CopyIntoWorktrees).
	worktreeCopy func() []string
}

// ProviderName names the lead's team tools on its surface.
const ProviderName = "team"

// Enable turns teams on for lead, whose subagents m runs: the team tools
// join its surface, messages for the lead join its notes, and its Close
// stops the team. lim's zero bounds take the defaults.
func Enable(lead *runtime.Session, m *agents.Manager, lim settings.Teams) (*Team, error) {
	if m == nil {
		return nil, fmt.Errorf("teams need the session's agents, which could not be set up")
	}
	t := &Team{lead: lead, agents: m, lim: lim.Limits(), members: map[string]*member{}, told: map[string]bool{},
		changed: make(chan struct{})}
	if err := lead.AddProvider(leadProvider{t}); err != nil {
		return nil, err
	}
	lead.AddNotes(t.leadNotes)
	lead.OnClose(t.Close)
	lead.WatchApprovals(t.asking)
	lead.OnPrompt(t.resetCaps)
	lead.OnTurnEnd(t.leadStopped)
	lead.OnSnapshot(func(snap *protocol.Snapshot) {
		st := t.State()
		snap.Team = &st
	})
	t.save(recordEnabled, t.lim)
	t.publish(protocol.TeamEnabled, t.State())
	return t, nil
}

// State is the team now.
func (t *Team) State() protocol.TeamState {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := protocol.TeamState{Enabled: true, MaxTeammates: t.lim.MaxTeammates, Teammates: []protocol.Teammate{},
		Board: t.board.list(), Messages: slices.Clone(t.messages), Notices: slices.Clone(t.notices)}
	for _, n := range t.order {
		st.Teammates = append(st.Teammates, t.members[n].info)
	}
	if st.Messages == nil {
		st.Messages = []protocol.TeamMessage{}
	}
	if st.Notices == nil {
		st.Notices = []protocol.TeamNotice{}
	}
	return st
}

// publish tells the lead's stream (after what is in the outbox).
func (t *Team) publish(typ protocol.EventType, payload any) {
	t.mu.Lock()
	t.emitLocked(typ, payload)
	t.mu.Unlock()
	t.flush()
}

// emitLocked queues an event for flush. t.mu is held.
func (t *Team) emitLocked(typ protocol.EventType, payload any) {
	t.outbox = append(t.outbox, protocol.Event{SessionID: t.lead.ID(), Type: typ, Payload: payload})
}

// flush publishes the queued events in order; call it without t.mu.
func (t *Team) flush() {
	t.pubMu.Lock()
	defer t.pubMu.Unlock()
	t.mu.Lock()
	evs := t.outbox
	t.outbox = nil
	t.mu.Unlock()
	pub := t.lead.Publisher()
	for _, e := range evs {
		e.TurnID = t.lead.TurnID()
		pub.Publish(e)
	}
}

// notice records n, tells the window and puts it in the lead's notes.
// t.mu is held.
func (t *Team) noticeLocked(n protocol.TeamNotice) {
	t.notices = append(t.notices, n)
	t.leadInbox = append(t.leadInbox, "[team] "+n.Text)
	t.saveLocked(recordNotice, n)
	t.emitLocked(protocol.TeamNoticed, n)
}

// resetCaps starts the counts of messages and wakes again: the user spoke.
func (t *Team) resetCaps() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.sent, t.leadWakes = 0, 0
	t.woken = false
	for _, m := range t.members {
		m.wakesSince = 0
	}
}

// leadNotes hands the lead's next model request what the team told it.
func (t *Team) leadNotes() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := t.leadInbox
	t.leadInbox = nil
	t.woken = false
	return out
}

// leadStopped wakes the lead when what the team told it arrived after its
// last model request.
func (t *Team) leadStopped(out agent.Outcome) {
	if out.Reason == protocol.StopBudgetExhausted {
		go t.budgetStop()
		return
	}
	defer t.flush()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.wakeLeadLocked(true)
}

// wakeLeadLocked starts a lead turn for its unread messages when it is
// idle (or its turn is ending: ending), within the cap. t.mu is held.
func (t *Team) wakeLeadLocked(ending bool) {
	// A message can arrive after the lead's turn cleared its id and
	// before leadStopped: that wake queues a turn, and leadStopped must not
	// queue another for the same inbox (it would run with nothing to read).
	if len(t.leadInbox) == 0 || t.closed || t.woken || (!ending && t.lead.TurnID() != "") {
		return
	}
	if t.leadWakes >= t.lim.MaxWakes {
		return // read with the user's next prompt
	}
	t.leadWakes++
	// Under the lock: a host that waits for the team to go quiet and the
	// lead to be idle (exec) never sees the moment between.
	if _, err := t.lead.Wake(wakeLead); err == nil {
		t.woken = true
	}
}

// wakeLead is the prompt of a turn the team starts for the lead.
const wakeLead = "[team] Your team has news for you (below). Act on it, or end your turn to wait for more."

// changedLocked wakes whoever waits for a change. t.mu is held.
func (t *Team) changedLocked() {
	close(t.changed)
	t.changed = make(chan struct{})
}

// Quiet waits until no teammate works or waits for the user (or ctx
// ends), and reports whether it is so. A host that ends with its lead's
// turn (exec) waits for it, with the lead's own queued turns, before it
// closes the session.
func (t *Team) Quiet(ctx context.Context) bool {
	for {
		t.mu.Lock()
		busy := false
		for _, m := range t.members {
			if s := m.info.State; s == protocol.TeammateWorking || s == protocol.TeammateWaiting {
				busy = true
			}
		}
		ch := t.changed
		t.mu.Unlock()
		if !busy {
			return true
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return false
		}
	}
}

// Busy reports whether a teammate works or waits for the user.
func (t *Team) Busy() bool {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return !t.Quiet(ctx)
}

// budgetStop stops every teammate: the session's budget is spent.
func (t *Team) budgetStop() {
	defer t.flush()
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return
	}
	var names []string
	for _, n := range t.order {
		if t.members[n].info.State != protocol.TeammateStopped {
			names = append(names, n)
		}
	}
	already := len(t.notices) > 0 && t.notices[len(t.notices)-1].Kind == protocol.NoticeBudget
	if len(names) > 0 && !already {
		t.noticeLocked(protocol.TeamNotice{Kind: protocol.NoticeBudget, Names: names,
			Text: "The session's budget is spent: every teammate was stopped."})
	}
	t.mu.Unlock()
	for _, n := range names {
		_, _ = t.stop(n, "the session's budget is spent")
	}
}

// reasonClosed is why the session's Close stopped a teammate: a resumed
// session gets it back idle.
const reasonClosed = "the session closed"

// Close stops every teammate and waits for them; the lead's Close calls
// it first.
func (t *Team) Close() {
	t.mu.Lock()
	t.closed = true
	names := slices.Clone(t.order)
	t.mu.Unlock()
	for _, n := range names {
		_, _ = t.stop(n, reasonClosed)
	}
	t.wg.Wait()
}

// Transcript is teammate name's transcript as the lead's snapshot folds
// it from its events (a restored one's as saved).
func (t *Team) Transcript(name string) ([]protocol.TranscriptItem, error) {
	t.mu.Lock()
	m, ok := t.members[name]
	var call string
	if ok {
		call = m.info.CallID
	}
	t.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("no teammate %q", name)
	}
	items := t.lead.Snapshot().Children[call].Items
	if items == nil {
		items = []protocol.TranscriptItem{}
	}
	return items, nil
}

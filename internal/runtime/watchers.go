package runtime

import (
	"gatehouse/internal/agent"
	"gatehouse/internal/approval"
	"gatehouse/internal/protocol"
)

// WatchApprovals adds f to what hears each request of the session's gate
// just before it asks the user, its children's requests included (their
// Agent says whose). f must not block.
func (s *Session) WatchApprovals(f func(approval.Request)) {
	s.hookMu.Lock()
	s.approvalWatch = append(s.approvalWatch, f)
	s.hookMu.Unlock()
}

// OnPrompt adds f to what runs each time a host's prompt starts or queues
// a turn of this main session (Submit, SubmitPrompt, Run, RunPrompt);
// Wake does not run it. f must not block.
func (s *Session) OnPrompt(f func()) {
	s.hookMu.Lock()
	s.onPrompt = append(s.onPrompt, f)
	s.hookMu.Unlock()
}

// Wake starts a turn for text the app itself wrote (a team's message for
// the lead), or queues it while one runs; it reports whether it was
// queued. The user's UserPromptSubmit hooks do not run on it: it is not the
// user's prompt.
func (s *Session) Wake(text string) (queued bool, err error) {
	return s.ctrl.SubmitPrompt(agent.Prompt{Text: text})
}

// prompted runs the OnPrompt functions for a host's prompt.
func (s *Session) prompted() {
	if s.parent != nil {
		return
	}
	s.hookMu.Lock()
	fs := append([]func(){}, s.onPrompt...)
	s.hookMu.Unlock()
	for _, f := range fs {
		f()
	}
}

// watchApproval tells the approval watchers of req.
func (s *Session) watchApproval(req approval.Request) {
	s.hookMu.Lock()
	fs := append([]func(approval.Request){}, s.approvalWatch...)
	s.hookMu.Unlock()
	for _, f := range fs {
		f(req)
	}
}

// OnTurnEnd adds f to what hears each turn's outcome once it stopped,
// after the host's Options.OnStop and before a queued message starts (a
// Wake from f queues). f must not block.
func (s *Session) OnTurnEnd(f func(agent.Outcome)) {
	s.hookMu.Lock()
	s.onTurnEnd = append(s.onTurnEnd, f)
	s.hookMu.Unlock()
}

// stopped is the controller's onStop: the host's, then OnTurnEnd's.
func (s *Session) stopped(host func(agent.Outcome)) func(agent.Outcome) {
	return func(out agent.Outcome) {
		if host != nil {
			host(out)
		}
		s.hookMu.Lock()
		fs := append([]func(agent.Outcome){}, s.onTurnEnd...)
		s.hookMu.Unlock()
		for _, f := range fs {
			f(out)
		}
	}
}

// OnSnapshot adds f to what fills in the session's Snapshot (a team's
// state). f must not block nor call Snapshot.
func (s *Session) OnSnapshot(f func(*protocol.Snapshot)) {
	s.hookMu.Lock()
	s.snapshotters = append(s.snapshotters, f)
	s.hookMu.Unlock()
}

func (s *Session) addToSnapshot(snap *protocol.Snapshot) {
	s.hookMu.Lock()
	fs := append([]func(*protocol.Snapshot){}, s.snapshotters...)
	s.hookMu.Unlock()
	for _, f := range fs {
		f(snap)
	}
}

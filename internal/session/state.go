// Package session keeps one conversation: the transcript the UI draws (folded
// from the event stream), its append-only log on disk, and the controller
// that runs one turn at a time and queues messages typed meanwhile.
package session

import (
	"encoding/json"
	"slices"
	"sync"

	"gatehouse/internal/protocol"
)

// State folds the delivered event stream into what Snapshot returns. It is an
// events.Sink: put it behind the same Bus as the UI's sink (events.Fanout),
// so a snapshot and the events after its LastSeq never overlap or miss.
//
// OnItem, when set, is called with every transcript item that has finished
// (a user message, a finished assistant message or tool call, a turn's stop),
// in order, from Emit: the session log appends them.
type State struct {
	mu        sync.Mutex
	sessionID string
	turnID    string
	items     []protocol.TranscriptItem
	index     map[string]int // "kind:id" → position in items
	approvals []protocol.ApprovalRequestedPayload
	procs     map[string]protocol.ProcessInfo
	procOrder []string
	lastSeq   uint64
	onItem    func(protocol.TranscriptItem)
	// children fold the events of subagents, by parent call id.
	children   map[string]*State
	childAgent map[string]string
	// budget is the last budget.updated (nil: none yet).
	budget *protocol.BudgetState
}

// NewState starts a state for sessionID with the transcript of earlier turns.
func NewState(sessionID string, items []protocol.TranscriptItem, onItem func(protocol.TranscriptItem)) *State {
	s := &State{sessionID: sessionID, index: map[string]int{}, procs: map[string]protocol.ProcessInfo{}, onItem: onItem}
	for _, it := range items {
		s.add(it)
	}
	return s
}

func key(kind protocol.ItemKind, id string) string { return string(kind) + ":" + id }

func (s *State) add(it protocol.TranscriptItem) int {
	s.items = append(s.items, it)
	if it.ID != "" {
		s.index[key(it.Kind, it.ID)] = len(s.items) - 1
	}
	return len(s.items) - 1
}

func (s *State) finished(i int) {
	if s.onItem != nil {
		s.onItem(s.items[i])
	}
}

// Emit folds one delivered event.
func (s *State) Emit(e protocol.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e.Seq > s.lastSeq {
		s.lastSeq = e.Seq
	}
	if e.ParentCallID != "" {
		s.emitChild(e)
		return
	}
	if e.SessionID != "" && e.SessionID != s.sessionID {
		return
	}
	switch p := e.Payload.(type) {
	case protocol.TurnStartedPayload:
		s.turnID = e.TurnID
		s.finished(s.add(protocol.TranscriptItem{Kind: protocol.ItemUser, ID: e.TurnID, TurnID: e.TurnID, Text: p.Prompt, Images: p.Images, Replaces: p.Replaces}))
	case protocol.MessageDeltaPayload:
		if i, ok := s.index[key(protocol.ItemAssistant, p.MessageID)]; ok {
			s.items[i].Text += p.Text
			return
		}
		s.add(protocol.TranscriptItem{Kind: protocol.ItemAssistant, ID: p.MessageID, TurnID: e.TurnID, Text: p.Text, Streaming: true})
	case protocol.MessageDonePayload:
		i, ok := s.index[key(protocol.ItemAssistant, p.MessageID)]
		if !ok {
			i = s.add(protocol.TranscriptItem{Kind: protocol.ItemAssistant, ID: p.MessageID, TurnID: e.TurnID})
		}
		it := &s.items[i]
		it.Text, it.Streaming, it.Cancelled = p.Text, false, p.Cancelled
		it.Reasoning, it.ReasoningModel = p.Reasoning, p.ReasoningModel
		s.finished(i)
	case protocol.ToolStartedPayload:
		s.add(protocol.TranscriptItem{Kind: protocol.ItemTool, ID: p.CallID, TurnID: e.TurnID, Tool: p.Tool, Args: p.Args, Running: true})
	case protocol.ToolFinishedPayload:
		i, ok := s.index[key(protocol.ItemTool, p.CallID)]
		if !ok {
			i = s.add(protocol.TranscriptItem{Kind: protocol.ItemTool, ID: p.CallID, TurnID: e.TurnID, Tool: p.Tool, Args: json.RawMessage("{}")})
		}
		it := &s.items[i]
		it.Running, it.Result, it.IsError, it.DurationMs, it.Progress = false, p.Result, p.IsError, p.DurationMs, nil
		it.WaitMs, it.ThrottledMs, it.Approval, it.Images = p.WaitMs, p.ThrottledMs, p.Approval, p.Images
		it.Hooks, it.Rewrite = p.Hooks, p.Rewrite
		s.finished(i)
	case protocol.ToolProgressPayload:
		if i, ok := s.index[key(protocol.ItemTool, p.CallID)]; ok && s.items[i].Running {
			pr := p
			s.items[i].Progress = &pr
		}
	case protocol.ApprovalRequestedPayload:
		// A re-preview repeats the approval id: it replaces the request.
		i := slices.IndexFunc(s.approvals, func(a protocol.ApprovalRequestedPayload) bool { return a.ApprovalID == p.ApprovalID })
		if i >= 0 {
			s.approvals[i] = p
		} else {
			s.approvals = append(s.approvals, p)
		}
	case protocol.ApprovalStalePayload:
		for i := range s.approvals {
			if s.approvals[i].ApprovalID == p.ApprovalID {
				a := &s.approvals[i]
				for _, path := range p.Paths {
					if !slices.Contains(a.Stale, path) {
						a.Stale = append(slices.Clip(a.Stale), path)
					}
				}
			}
		}
	case protocol.ApprovalDiagnosticsPayload:
		for i := range s.approvals {
			if s.approvals[i].ApprovalID == p.ApprovalID {
				d := p
				s.approvals[i].Diagnostics = &d
			}
		}
	case protocol.ApprovalResolvedPayload:
		for i, a := range s.approvals {
			if a.ApprovalID == p.ApprovalID {
				s.approvals = append(s.approvals[:i], s.approvals[i+1:]...)
				break
			}
		}
	case protocol.TurnStoppedPayload:
		// Pending requests are left to their approval.resolved (the gate
		// tells exactly one for each): a teammate's or a background
		// subagent's request outlives the turn of the session it asks in,
		// and the page's fold keeps it too.
		s.turnID = ""
		u := p.Usage
		s.finished(s.add(protocol.TranscriptItem{Kind: protocol.ItemStop, TurnID: e.TurnID, Reason: p.Reason,
			Error: p.Error, ErrorKind: p.ErrorKind, Usage: &u, Model: p.Model, Context: p.Context, Blocked: p.Blocked, Plan: p.Plan,
			Cost: p.Cost, Budget: p.Budget}))
	case protocol.ContextCompactedPayload:
		c := p.Compaction
		s.finished(s.add(protocol.TranscriptItem{Kind: protocol.ItemCompaction, ID: p.CompactionID, TurnID: e.TurnID,
			Text: p.Summary, Compaction: &c, Context: p.Context}))
	case protocol.ContextCompactionUndonePayload:
		if i, ok := s.index[key(protocol.ItemCompaction, p.CompactionID)]; ok {
			c := *s.items[i].Compaction
			c.Undone = true
			s.items[i].Compaction, s.items[i].Context = &c, p.Context
			s.finished(i) // the log gets the item again, undone
		}
	case protocol.UndoAppliedPayload:
		u := p
		s.finished(s.add(protocol.TranscriptItem{Kind: protocol.ItemUndo, ID: p.Unit, TurnID: e.TurnID, Undo: &u}))
	case protocol.McpWaitingPayload:
		s.finished(s.add(protocol.TranscriptItem{Kind: protocol.ItemMcpWaiting, TurnID: e.TurnID, Servers: p.Servers}))
	case protocol.TeamMessage:
		// The lead's own messages are its team_message calls.
		if _, told := s.index[key(protocol.ItemTeamMessage, p.ID)]; p.From != protocol.TeamLead && !told {
			m := p
			s.finished(s.add(protocol.TranscriptItem{Kind: protocol.ItemTeamMessage, ID: p.ID, TurnID: e.TurnID, Message: &m}))
		}
	case protocol.BudgetState:
		b := p
		s.budget = &b
	case protocol.ProcessStartedPayload:
		s.process(p.ProcessInfo)
	case protocol.ProcessUpdatedPayload:
		s.process(p.ProcessInfo)
	case protocol.ProcessExitedPayload:
		s.process(p.ProcessInfo)
	}
}

func (s *State) process(info protocol.ProcessInfo) {
	if _, ok := s.procs[info.ProcessID]; !ok {
		s.procOrder = append(s.procOrder, info.ProcessID)
	}
	s.procs[info.ProcessID] = info
}

// Snapshot returns the session as of the last delivered event.
func (s *State) Snapshot() protocol.Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	snap := protocol.Snapshot{
		SessionID:        s.sessionID,
		TurnID:           s.turnID,
		Transcript:       append([]protocol.TranscriptItem{}, s.items...),
		PendingApprovals: append([]protocol.ApprovalRequestedPayload{}, s.approvals...),
		Processes:        []protocol.ProcessInfo{},
		LastSeq:          s.lastSeq,
		Budget:           s.budget,
	}
	for _, id := range s.procOrder {
		snap.Processes = append(snap.Processes, s.procs[id])
	}
	for call, c := range s.children {
		if snap.Children == nil {
			snap.Children = map[string]protocol.ChildTranscript{}
		}
		cs := c.Snapshot()
		snap.Children[call] = protocol.ChildTranscript{SessionID: cs.SessionID, Agent: s.childAgent[call], TurnID: cs.TurnID, Items: cs.Transcript}
	}
	return snap
}

// emitChild folds a subagent's event into the transcript kept for the
// call that started it. s.mu is held; the child's lock is taken inside.
func (s *State) emitChild(e protocol.Event) {
	c := s.children[e.ParentCallID]
	if c == nil {
		if !s.knowsCall(e.ParentCallID) {
			return // another session's child (a host's shared stream)
		}
		if s.children == nil {
			s.children, s.childAgent = map[string]*State{}, map[string]string{}
		}
		c = NewState(e.SessionID, nil, nil)
		s.children[e.ParentCallID] = c
	}
	s.childAgent[e.ParentCallID] = e.Agent
	e.ParentCallID, e.Agent = "", ""
	c.Emit(e)
}

// knowsCall reports whether call is a tool call of this transcript or of
// one of its children's. s.mu is held.
func (s *State) knowsCall(call string) bool {
	if _, ok := s.index[key(protocol.ItemTool, call)]; ok {
		return true
	}
	for _, c := range s.children {
		c.mu.Lock()
		_, ok := c.index[key(protocol.ItemTool, call)]
		c.mu.Unlock()
		if ok {
			return true
		}
	}
	return false
}

// RestoreChild puts back the transcript of a subagent that ended, under the
// call that started it (a resumed session's children).
func (s *State) RestoreChild(parentCallID string, ct protocol.ChildTranscript) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.children == nil {
		s.children, s.childAgent = map[string]*State{}, map[string]string{}
	}
	s.children[parentCallID] = NewState(ct.SessionID, ct.Items, nil)
	s.childAgent[parentCallID] = ct.Agent
}

// SetLastSeq raises the seq the snapshot reports to seq, the bus's last seq
// when the state was made, so a state made after earlier events does not
// send the UI back to seq 0.
func (s *State) SetLastSeq(seq uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lastSeq = max(s.lastSeq, seq)
}

// AddProcesses adds processes not announced by an event: those of an earlier
// run, restored as ended entries when a session is resumed.
func (s *State) AddProcesses(infos []protocol.ProcessInfo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, info := range infos {
		s.process(info)
	}
}

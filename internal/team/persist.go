package team

import (
	"context"
	"encoding/json"

	"gatehouse/internal/agents"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime"
	"gatehouse/internal/session"
	"gatehouse/internal/settings"
)

// The team's records in the lead's log. Extend, don't rename.
const (
	recordEnabled session.RecordType = "team"
	recordMember  session.RecordType = "team.member"
	recordBoard   session.RecordType = "team.board"
	recordMessage session.RecordType = "team.message"
	recordNotice  session.RecordType = "team.notice"
)

// memberRecord is a teammate as saved: its state, what it said last and,
// once its session ended, its transcript.
type memberRecord struct {
	protocol.Teammate
	Last  string                    `json:"last,omitempty"`
	Items []protocol.TranscriptItem `json:"items,omitempty"`
}

// save writes a record to the lead's log (nothing without one).
func (t *Team) save(typ session.RecordType, v any) {
	_ = t.lead.AppendRecord(typ, v)
}

// saveLocked is save with t.mu held (the log's queue takes its own lock).
func (t *Team) saveLocked(typ session.RecordType, v any) { t.save(typ, v) }

// saveMember saves m after a turn, with its transcript.
func (t *Team) saveMember(m *member) {
	items := m.sess.Snapshot().Transcript
	t.mu.Lock()
	rec := memberRecord{Teammate: m.info, Last: m.last, Items: items}
	t.mu.Unlock()
	t.save(recordMember, rec)
}

// WasOn reports whether the saved session past had teams on.
func WasOn(past *session.Loaded) bool {
	if past == nil {
		return false
	}
	for _, r := range past.Records {
		if r.Type == recordEnabled {
			return true
		}
	}
	return false
}

// Resume turns teams on for a resumed lead whose log had them: the board,
// the messages and notices come back, and each teammate, idle (a stopped
// one stays stopped), with its transcript under the lead's spawn call; a
// message wakes it in a fresh session. lim are the settings now.
func Resume(lead *runtime.Session, m *agents.Manager, lim settings.Teams, past *session.Loaded) (*Team, error) {
	t, err := Enable(lead, m, lim)
	if err != nil {
		return nil, err
	}
	saved := map[string]memberRecord{}
	var order []string
	t.mu.Lock()
	for _, r := range past.Records {
		switch r.Type {
		case recordMember:
			var mr memberRecord
			if json.Unmarshal(r.Data, &mr) != nil || mr.Name == "" {
				continue
			}
			if _, ok := saved[mr.Name]; !ok {
				order = append(order, mr.Name)
			}
			if prev, ok := saved[mr.Name]; ok && mr.Items == nil {
				mr.Items = prev.Items // a stop saves no transcript
			}
			saved[mr.Name] = mr
		case recordBoard:
			var tasks []protocol.TeamTask
			if json.Unmarshal(r.Data, &tasks) == nil {
				t.board.tasks = tasks
			}
		case recordMessage:
			var msg protocol.TeamMessage
			if json.Unmarshal(r.Data, &msg) == nil {
				t.messages = append(t.messages, msg)
				t.msgSeq++
			}
		case recordNotice:
			var n protocol.TeamNotice
			if json.Unmarshal(r.Data, &n) == nil {
				t.notices = append(t.notices, n)
			}
		}
	}
	t.mu.Unlock()
	for _, name := range order {
		mr := saved[name]
		lead.RestoreChild(mr.CallID, protocol.ChildTranscript{SessionID: mr.SessionID, Agent: name, Items: mr.Items})
		info := mr.Teammate
		info.ApprovalID = ""
		if info.State != protocol.TeammateStopped {
			info.State, info.Reason = protocol.TeammateIdle, "the session was resumed"
		}
		mem := &member{info: info, last: mr.Last, wake: make(chan struct{}, 1), done: make(chan struct{})}
		mem.ctx, mem.cancel = context.WithCancel(context.Background())
		t.mu.Lock()
		t.members[name] = mem
		t.order = append(t.order, name)
		t.wg.Add(1)
		t.mu.Unlock()
		if info.State == protocol.TeammateStopped {
			close(mem.done)
			t.wg.Done()
			continue
		}
		go t.loop(mem, "")
	}
	t.publish(protocol.TeamEnabled, t.State())
	return t, nil
}

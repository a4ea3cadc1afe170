package team

import (
	"fmt"
	"sort"
	"strings"

	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

// MaxMessageBytes bounds one message's text.
const MaxMessageBytes = 32 << 10

// send sends text from member from to to (a teammate, "lead" or "all").
// A refusal returns the error code the sender reads.
func (t *Team) send(from, to, text string) (protocol.TeamMessage, string, error) {
	if strings.TrimSpace(text) == "" {
		return protocol.TeamMessage{}, tools.CodeInvalidArguments, fmt.Errorf("text is empty")
	}
	if len(text) > MaxMessageBytes {
		return protocol.TeamMessage{}, tools.CodeInvalidArguments, fmt.Errorf("text is %d bytes, over the %d-byte limit: put long material in a file", len(text), MaxMessageBytes)
	}
	if to == from {
		return protocol.TeamMessage{}, tools.CodeInvalidArguments, fmt.Errorf("you cannot message yourself")
	}
	defer t.flush()
	t.mu.Lock()
	defer t.mu.Unlock()
	var targets []*member
	switch to {
	case protocol.TeamLead:
	case protocol.TeamAll:
		for _, n := range t.order {
			if n != from {
				targets = append(targets, t.members[n])
			}
		}
	default:
		m, ok := t.members[to]
		if !ok {
			return protocol.TeamMessage{}, tools.CodeNotFound, fmt.Errorf("no teammate %q; the team: %s", to, t.namesLocked())
		}
		if m.info.State == protocol.TeammateStopped {
			return protocol.TeamMessage{}, CodeTeamFailed, fmt.Errorf("%s was stopped (%s): nothing wakes it", to, m.info.Reason)
		}
		targets = append(targets, m)
	}
	if t.sent >= t.lim.MaxMessages {
		if t.sent == t.lim.MaxMessages {
			t.sent++ // told once
			t.noticeLocked(protocol.TeamNotice{Kind: protocol.NoticeCap, Names: t.talkersLocked(),
				Text: fmt.Sprintf("Messages stopped at the cap: the team sent %d messages since your last prompt (teams: max messages). The last were between %s.", t.lim.MaxMessages, strings.Join(t.talkersLocked(), " and "))})
			t.wakeLeadLocked(false)
		}
		return protocol.TeamMessage{}, CodeTeamCap, fmt.Errorf("not sent: the team reached its cap of %d messages until the user's next prompt; end your turn", t.lim.MaxMessages)
	}
	t.sent++
	t.msgSeq++
	msg := protocol.TeamMessage{ID: fmt.Sprintf("msg-%d", t.msgSeq), From: from, To: to, Text: text}
	t.messages = append(t.messages, msg)
	t.saveLocked(recordMessage, msg)
	t.emitLocked(protocol.TeamMessageSent, msg)
	for _, m := range targets {
		t.deliverLocked(m, msg)
	}
	if (to == protocol.TeamLead || to == protocol.TeamAll) && from != protocol.TeamLead {
		t.leadInbox = append(t.leadInbox, fmt.Sprintf("[team message from %s to %s]\n%s", from, to, text))
		t.wakeLeadLocked(false)
	}
	return msg, "", nil
}

// namesLocked lists the members' names. t.mu is held.
func (t *Team) namesLocked() string {
	if len(t.order) == 0 {
		return "nobody yet"
	}
	return strings.Join(t.order, ", ")
}

// talkersLocked are the senders and receivers of the last messages (up to
// ten), sorted. t.mu is held.
func (t *Team) talkersLocked() []string {
	seen := map[string]bool{}
	for i := len(t.messages) - 1; i >= 0 && i >= len(t.messages)-10; i-- {
		seen[t.messages[i].From], seen[t.messages[i].To] = true, true
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// updateTask makes u on the board for by and tells.
func (t *Team) updateTask(by string, u update) (protocol.TeamTask, error) {
	defer t.flush()
	t.mu.Lock()
	defer t.mu.Unlock()
	task, err := t.board.apply(by, u, func(name string) bool {
		_, ok := t.members[name]
		return ok || name == protocol.TeamLead
	})
	if err != nil {
		return task, err
	}
	tasks := t.board.list()
	t.saveLocked(recordBoard, tasks)
	t.emitLocked(protocol.TeamBoard, protocol.TeamBoardPayload{Tasks: tasks, TaskID: task.ID, By: by})
	t.checkWaitsLocked()
	return task, nil
}

// checkWaitsLocked tells the lead of a loop of idle teammates waiting on
// each other's tasks, once per loop. t.mu is held.
func (t *Team) checkWaitsLocked() {
	names, why := t.board.waitCycle(func(name string) bool {
		m, ok := t.members[name]
		return ok && m.info.State == protocol.TeammateIdle && len(m.inbox) == 0
	})
	if names == nil || t.told[why] {
		return
	}
	t.told[why] = true
	t.noticeLocked(protocol.TeamNotice{Kind: protocol.NoticeMutualWait, Names: names,
		Text: fmt.Sprintf("Mutual wait: %s wait on each other and nothing will move: %s. Change the board or message one of them.", strings.Join(names, " and "), why)})
	t.wakeLeadLocked(false)
}

package export

import (
	"encoding/json"

	"gatehouse/internal/protocol"
	"gatehouse/internal/session"
)

// childRecord is what the page needs of a session.RecordChild record (the
// agents package's ChildInfo): the agent, the call that started it, its
// transcript.
type childRecord struct {
	Agent        string                    `json:"agent"`
	ParentCallID string                    `json:"parentCallId"`
	Items        []protocol.TranscriptItem `json:"items"`
}

// readChildren keeps the children l's log saved, the last record of each
// call winning, their items masked.
func readChildren(l *session.Loaded, m *Masker) map[string]childRecord {
	out := map[string]childRecord{}
	for _, r := range l.Records {
		var c childRecord
		if r.Type != session.RecordChild || json.Unmarshal(r.Data, &c) != nil || c.ParentCallID == "" {
			continue
		}
		for i, it := range c.Items {
			c.Items[i] = maskItem(m, it)
		}
		out[c.ParentCallID] = c
	}
	return out
}

// children are the subagents started by calls of the exported turns, and
// theirs in turn, by the starting call's id.
func (d *doc) children() map[string]protocol.ChildTranscript {
	out := map[string]protocol.ChildTranscript{}
	var add func(items []protocol.TranscriptItem)
	add = func(items []protocol.TranscriptItem) {
		for _, it := range items {
			c, ok := d.Children[it.ID]
			if it.Kind != protocol.ItemTool || !ok {
				continue
			}
			if _, seen := out[it.ID]; seen {
				continue
			}
			out[it.ID] = protocol.ChildTranscript{Agent: c.Agent, Items: c.Items}
			add(c.Items)
		}
	}
	for _, t := range d.Turns {
		add(t.Items)
	}
	return out
}

package session

import (
	"encoding/json"
	"strconv"
	"strings"

	"gatehouse/internal/agent"
	"gatehouse/internal/llm"
	"gatehouse/internal/protocol"
)

// HistoryFromTranscript rebuilds the model's conversation from finished
// transcript items (a loaded log), so a resumed session's agent has its
// history back:
//
//   - a user item is a user message;
//   - an assistant item is an assistant message with its text and the calls
//     of the tool items that follow it in the same turn;
//   - each tool item is the result message of its call (not-run results
//     included);
//   - stop items, and items still streaming or running, are skipped;
//   - so are the items of a turn a later one replaced (a retry, see
//     protocol.TurnStartedPayload.Replaces).
//
// Each message gets the id of its item (llm.Message.ID), and an assistant
// message the reasoning items saved with it: the client sends them back to
// the model that made them only (see llm.Message.Reasoning).
//
// Every call in the result has exactly one result message, right after its
// assistant message: a call is only listed when its finished tool item is
// there. Tool items with no assistant item before them in their turn get an
// empty assistant message of their own.
func HistoryFromTranscript(items []protocol.TranscriptItem) []llm.Message {
	var out []llm.Message
	// open is the index in out of the assistant message that the tool items
	// now following belong to, -1 when none.
	open, openTurn := -1, ""
	replaced := map[string]bool{}
	for _, it := range items {
		if it.Kind == protocol.ItemUser && it.Replaces != "" {
			replaced[it.Replaces] = true
		}
	}
	for _, it := range items {
		if replaced[it.TurnID] {
			continue
		}
		switch it.Kind {
		case protocol.ItemUser:
			m := llm.User(it.Text)
			m.ID, m.Images = it.ID, savedImages(it.Images)
			out = append(out, m)
			open = -1
		case protocol.ItemAssistant:
			if it.Streaming {
				continue
			}
			m := llm.Assistant(it.Text)
			m.ID, m.Reasoning, m.ReasoningModel = it.ID, it.Reasoning, it.ReasoningModel
			out = append(out, m)
			open, openTurn = len(out)-1, it.TurnID
		case protocol.ItemTool:
			if it.Running || it.ID == "" {
				continue
			}
			if open < 0 || openTurn != it.TurnID {
				out = append(out, llm.Assistant(""))
				open, openTurn = len(out)-1, it.TurnID
			}
			out[open].ToolCalls = append(out[open].ToolCalls, llm.ToolCall{ID: it.ID, Name: it.Tool, Arguments: rawArgs(it.Args)})
			r := llm.ToolResult(it.ID, string(it.Result))
			r.ID, r.Images = it.ID, savedImages(it.Images)
			out = append(out, r)
		case protocol.ItemStop:
			open = -1
		}
	}
	// The agent never keeps an assistant message with neither text nor
	// calls (an empty cancelled one); neither does the rebuilt history.
	kept := out[:0]
	for _, m := range out {
		if m.Role == llm.RoleAssistant && m.Text == "" && len(m.ToolCalls) == 0 {
			continue
		}
		kept = append(kept, m)
	}
	return kept
}

// savedImages names the images of an item without their bytes, which the
// agent reads from the image store when a request needs them
// (agent.Config.LoadImage).
func savedImages(refs []protocol.ImageRef) []llm.Image {
	var out []llm.Image
	for _, r := range refs {
		out = append(out, llm.Image{ID: r.ID, MIME: r.MIME, Width: r.Width, Height: r.Height})
	}
	return out
}

// rawArgs undoes what the agent does to arguments for the event: malformed
// arguments travel as a JSON string of the raw text.
func rawArgs(args json.RawMessage) string {
	if len(args) > 0 && args[0] == '"' {
		var s string
		if json.Unmarshal(args, &s) == nil {
			return s
		}
	}
	if len(args) == 0 {
		return "{}"
	}
	return string(args)
}

// LastTurn is the number of the last turn of items (their ids end in
// "-tN"), so a resumed session's next turn gets a new id: the highest N, or
// the count of user messages when that is higher.
func LastTurn(items []protocol.TranscriptItem) uint64 {
	var n uint64
	for _, it := range items {
		if it.Kind != protocol.ItemUser {
			continue
		}
		n++
		if i := strings.LastIndex(it.TurnID, "-t"); i >= 0 {
			if k, err := strconv.ParseUint(it.TurnID[i+2:], 10, 64); err == nil && k > n {
				n = k
			}
		}
	}
	return n
}

// Checkpoint is the summary compaction in effect at the end of a
// transcript: its item, and how many messages of HistoryFromTranscript's
// result come before the item (where the summary takes over when its
// KeepFrom names no message).
type Checkpoint struct {
	Item protocol.TranscriptItem
	Keep int
}

// LastCheckpoint returns the last compaction of items that was not undone.
func LastCheckpoint(items []protocol.TranscriptItem) (Checkpoint, bool) {
	for i := len(items) - 1; i >= 0; i-- {
		it := items[i]
		if it.Kind == protocol.ItemCompaction && it.Compaction != nil && !it.Compaction.Undone {
			return Checkpoint{Item: it, Keep: len(HistoryFromTranscript(items[:i]))}, true
		}
	}
	return Checkpoint{}, false
}

// Resume gives a resumed session's agent its history back, and the
// compaction in effect when the session was saved: the model is sent what
// it was sent then, the transcript keeps everything.
func Resume(a *agent.Agent, items []protocol.TranscriptItem) {
	a.SetHistory(HistoryFromTranscript(items))
	if cp, ok := LastCheckpoint(items); ok {
		a.RestoreCheckpoint(cp.Item.ID, cp.Item.Text, *cp.Item.Compaction, cp.Keep)
	}
}

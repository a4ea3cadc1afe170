package session

import (
	"encoding/json"
	"strconv"
	"strings"

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
//   - stop items, and items still streaming or running, are skipped.
//
// The transcript keeps no reasoning items, so no message gets Reasoning: a
// reasoning model resumed here reasons afresh (see llm.Message.Reasoning).
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
	for _, it := range items {
		switch it.Kind {
		case protocol.ItemUser:
			out = append(out, llm.User(it.Text))
			open = -1
		case protocol.ItemAssistant:
			if it.Streaming {
				continue
			}
			out = append(out, llm.Assistant(it.Text))
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
			out = append(out, llm.ToolResult(it.ID, string(it.Result)))
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

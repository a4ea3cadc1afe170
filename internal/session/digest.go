package session

import (
	"fmt"
	"strings"

	"gatehouse/internal/protocol"
)

// Digest is what an @-mention of a saved session attaches: its title, the
// last checkpoint summary in effect (the model's own summary of what came
// before it) and, after it, each turn's prompt and the assistant's replies,
// without tool calls and outputs. Turns a retry replaced are left out. When
// longer than max bytes, the oldest turns go first (a line says so); the
// summary is kept.
func Digest(l *Loaded, max int) string {
	items := l.Items
	summary := ""
	for i := len(items) - 1; i >= 0; i-- {
		if it := items[i]; it.Kind == protocol.ItemCompaction && it.Compaction != nil && !it.Compaction.Undone {
			summary, items = it.Text, items[i+1:]
			break
		}
	}
	replaced := map[string]bool{}
	for _, it := range items {
		if it.Kind == protocol.ItemUser && it.Replaces != "" {
			replaced[it.Replaces] = true
		}
	}
	var turns []string
	var b strings.Builder
	for _, it := range items {
		if replaced[it.TurnID] {
			continue
		}
		switch {
		case it.Kind == protocol.ItemUser:
			if b.Len() > 0 {
				turns = append(turns, b.String())
				b.Reset()
			}
			fmt.Fprintf(&b, "User: %s\n", strings.TrimSpace(it.Text))
		case it.Kind == protocol.ItemAssistant && !it.Streaming && strings.TrimSpace(it.Text) != "":
			fmt.Fprintf(&b, "Assistant: %s\n", strings.TrimSpace(it.Text))
		}
	}
	if b.Len() > 0 {
		turns = append(turns, b.String())
	}
	head := fmt.Sprintf("Session %q (%d turns)\n", l.Meta.Title, l.Turns())
	if summary != "" {
		head += "Summary of its earlier turns:\n" + strings.TrimSpace(summary) + "\n"
	}
	dropped := 0
	size := func() int {
		n := len(head)
		for _, t := range turns[dropped:] {
			n += len(t)
		}
		return n
	}
	for dropped < len(turns) && size() > max {
		dropped++
	}
	out := head
	if dropped > 0 {
		out += fmt.Sprintf("(%d earlier turns left out for length)\n", dropped)
	}
	return out + strings.Join(turns[dropped:], "")
}

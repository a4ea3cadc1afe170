package export

import (
	"fmt"
	"strings"

	"gatehouse/internal/protocol"
)

// hookLine says what one of the user's hooks did on a call: its command,
// event and source, its verdict and reason, how long it took.
func hookLine(h protocol.HookRun) string {
	where := []string{h.Event}
	if h.Source == "workspace" {
		where = append(where, "workspace hook")
	}
	if h.ToolName != "" {
		where = append(where, "as "+h.ToolName)
	}
	s := fmt.Sprintf("hook %s (%s): %s", oneLine(h.Name), strings.Join(where, ", "), oneLine(h.Verdict))
	if h.Reason != "" {
		s += " — " + oneLine(h.Reason)
	}
	return s + fmt.Sprintf(" · %d ms", h.DurationMs)
}

// hookVerdict is the summary line's word on hooks that decided a call
// ("" when every hook let it go without one): denied, asked for, allowed
// or rewritten by a named hook, or a hook that failed.
func hookVerdict(it protocol.TranscriptItem) string {
	var parts []string
	for _, h := range it.Hooks {
		switch {
		case h.Failed != "":
			parts = append(parts, "hook "+oneLine(h.Name)+" failed")
		case h.Decision == "deny" || h.Decision == "block":
			parts = append(parts, "denied by hook "+oneLine(h.Name))
		case h.Decision == "ask":
			parts = append(parts, "hook "+oneLine(h.Name)+" asked")
		case h.Decision == "allow":
			parts = append(parts, "allowed by hook "+oneLine(h.Name))
		}
	}
	if it.Rewrite != nil {
		parts = append(parts, "rewritten by hook "+oneLine(it.Rewrite.Hook))
	}
	return strings.Join(parts, "; ")
}

// total is the spending of the exported turns: their tokens and, where the
// session priced them, their cost (nil when no turn has one).
type total struct {
	Usage protocol.Usage
	Cost  *float64
	Turns int // turns with a usage
}

func (d *doc) total() total {
	var t total
	for _, turn := range d.Turns {
		for _, it := range turn.Items {
			if it.Kind != protocol.ItemStop {
				continue
			}
			if it.Usage != nil {
				t.Usage = t.Usage.Add(*it.Usage)
				t.Turns++
			}
			if it.Cost != nil {
				c := *it.Cost
				if t.Cost != nil {
					c += *t.Cost
				}
				t.Cost = &c
			}
		}
	}
	return t
}

// totalLine is the spending in words ("" when no turn has a usage).
func (t total) line() string {
	if t.Turns == 0 && t.Cost == nil {
		return ""
	}
	s := fmt.Sprintf("%d tokens in, %d out", t.Usage.PromptTokens, t.Usage.CompletionTokens)
	if t.Cost != nil {
		s += fmt.Sprintf(" · $%.4f", *t.Cost)
	} else {
		s += " · no price"
	}
	return s
}

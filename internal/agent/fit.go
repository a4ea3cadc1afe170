package agent

import (
	"encoding/json"
	"fmt"
	"strings"

	"gatehouse/internal/llm"
)

// What the model is sent: the view.
//
// The agent's history keeps every message of the session, whole. What a
// request carries is a view of it:
//
//   - micro-compaction: once the request passes MicroCompactAt percent of
//     the window, the oldest tool results are replaced by a one-line stub
//     that names the call and says how to get the output again, until it is
//     back under (MicroCompactAt - 10) percent. The call stays, so every
//     call keeps its one result; the results of the latest assistant
//     message (the model is about to read them) and every user message are
//     never touched. A stubbed result stays stubbed, so the start of later
//     requests does not change (prompt caches keep working).
//   - summary compaction (compact.go): past CompactAt percent, the model
//     writes a checkpoint summary that replaces the older messages.
//
// Sizes are Gatehouse's estimate (about four bytes a token) times the ratio
// the server's own count showed at the last request (never below 1), so a
// server that counts more tokens than the estimate says is believed.

// fit returns the messages of the next request, first clearing old tool
// outputs when the request would pass the micro-compaction threshold. It
// returns how many outputs it cleared and the request's estimated size.
func (a *Agent) fit(specs []llm.ToolSpec) ([]llm.Message, int, int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	cleared := 0
	size := a.sizeLocked(specs)
	window := a.windowLocked().Tokens
	if size > window*a.cfg.MicroCompactAt/100 {
		cleared = a.clearLocked(specs, window*(a.cfg.MicroCompactAt-10)/100, &size)
	}
	return a.viewLocked(), cleared, size
}

// clearLocked stubs the oldest sent tool results, except those of the
// latest assistant message, until the size is at most target. It returns
// how many it stubbed; *size is updated.
func (a *Agent) clearLocked(specs []llm.ToolSpec, target int, size *int) int {
	last := len(a.history)
	for i := len(a.history) - 1; i >= 0; i-- {
		if a.history[i].Role == llm.RoleAssistant {
			last = i
			break
		}
	}
	calls := map[string]llm.ToolCall{}
	n := 0
	for i := a.firstSent(); i < last && *size > target; i++ {
		m := a.history[i]
		for _, c := range m.ToolCalls {
			calls[c.ID] = c
		}
		if m.Role != llm.RoleTool {
			continue
		}
		if _, done := a.cleared[m.ToolCallID]; done {
			continue
		}
		stub := clearedStub(calls[m.ToolCallID], m.Text)
		if len(m.Images) > 0 {
			stub = clearedImageStub(calls[m.ToolCallID], len(m.Images))
		} else if len(stub) >= len(m.Text) {
			continue
		}
		a.cleared[m.ToolCallID] = stub
		*size -= a.scaled(estimate(m.Text) + imageTokens(m.Images) - estimate(stub))
		n++
	}
	return n
}

// firstSent is the index of the first history message the view sends as
// it is (after a checkpoint summary, where it keeps on).
func (a *Agent) firstSent() int {
	if a.cp != nil {
		return a.cp.keep
	}
	return 0
}

// viewLocked is what the next request sends: the system prompt, then the
// checkpoint (the last prompt, when the summary replaced it, and the
// summary) when there is one, then the history from where it keeps on, with
// cleared tool outputs stubbed.
func (a *Agent) viewLocked() []llm.Message {
	msgs := make([]llm.Message, 0, len(a.history)+3)
	if a.cfg.System != "" {
		msgs = append(msgs, llm.System(a.cfg.System))
	}
	if a.cp != nil {
		if a.cp.lastUser >= 0 {
			msgs = append(msgs, a.withImagesLocked(a.history[a.cp.lastUser]))
		}
		text := checkpointText(a.cp.summary)
		if a.cfg.Kept != nil {
			if k := a.cfg.Kept(); k != "" {
				text += "\n\n" + k
			}
		}
		msgs = append(msgs, llm.User(text))
	}
	for _, m := range a.history[a.firstSent():] {
		if m.Role == llm.RoleTool {
			if stub, ok := a.cleared[m.ToolCallID]; ok {
				m.Text, m.Images = stub, nil
			}
		}
		msgs = append(msgs, a.withImagesLocked(m))
	}
	return msgs
}

// pastCompactAt reports whether a request of size passes CompactAt.
func (a *Agent) pastCompactAt(size int) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return size > a.windowLocked().Tokens*a.cfg.CompactAt/100
}

// maxRatio bounds what one count can teach the estimate.
const maxRatio = 3

// observe learns from the server's count of a request's prompt how much
// the estimate undercounts.
func (a *Agent) observe(prompt int64, msgs []llm.Message, specs []llm.ToolSpec) {
	n := specTokens(specs)
	for _, m := range msgs {
		n += messageTokens(m)
	}
	a.mu.Lock()
	a.ratio = min(max(a.ratio, float64(prompt)/float64(n)), maxRatio)
	a.mu.Unlock()
}

// sizeLocked is the estimated size of the next request, scaled by what the
// server's count showed.
func (a *Agent) sizeLocked(specs []llm.ToolSpec) int {
	n := specTokens(specs)
	for _, m := range a.viewLocked() {
		n += messageTokens(m)
	}
	return a.scaled(n)
}

// scaled is n tokens of Gatehouse's estimate as the server would count them.
func (a *Agent) scaled(n int) int {
	return int(float64(n) * max(a.ratio, 1))
}

// clearedStub is the one-line result that stands for a cleared output of
// call: what ran, how long the output was, and how to get it again.
func clearedStub(c llm.ToolCall, output string) string {
	lines := strings.Count(output, "\n") + strings.Count(output, `\n`) + 1
	how := "call it again"
	switch c.Name {
	case "bash":
		how = "run it again, or read the process's log (bash logs)"
	case "read_file", "list_dir", "glob", "grep":
		how = "read it again"
	}
	note := fmt.Sprintf("output of `%s` (%s lines, %s bytes) cleared to save context; %s if you need it",
		describeCall(c), thousands(lines), thousands(len(output)), how)
	b, _ := json.Marshal(map[string]any{"cleared": true, "note": note})
	return string(b)
}

// clearedImageStub replaces a tool result that carried images (view_image).
func clearedImageStub(c llm.ToolCall, n int) string {
	note := fmt.Sprintf("the %d image(s) `%s` returned were dropped to save context; view it again if you need it", n, describeCall(c))
	b, _ := json.Marshal(map[string]any{"cleared": true, "note": note})
	return string(b)
}

// imageTokens is the provider's count of ims (see llm.Image.Tokens).
func imageTokens(ims []llm.Image) int {
	n := 0
	for _, im := range ims {
		n += im.Tokens()
	}
	return n
}

// describeCall names a call in a few words: a bash command as typed, a file
// tool and its path, else the tool and its arguments, cut short.
func describeCall(c llm.ToolCall) string {
	var args map[string]any
	_ = json.Unmarshal([]byte(c.Arguments), &args)
	s := ""
	switch {
	case c.Name == "":
		return "a tool call"
	case args["command"] != nil:
		s = fmt.Sprint(args["command"])
	case args["path"] != nil:
		s = c.Name + " " + fmt.Sprint(args["path"])
	case args["pattern"] != nil:
		s = c.Name + " " + fmt.Sprint(args["pattern"])
	default:
		s = strings.TrimSpace(c.Name + " " + strings.Join(strings.Fields(c.Arguments), " "))
	}
	s = strings.ReplaceAll(s, "`", "'")
	if r := []rune(s); len(r) > 80 {
		s = string(r[:79]) + "…"
	}
	return s
}

// thousands writes n with commas: 2104 → "2,104".
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// estimate is a rough token count: about four bytes a token.
func estimate(s string) int { return len(s)/4 + 1 }

// messageTokens leaves out m.Reasoning: it is opaque (encrypted on the
// Responses API), so its size in bytes says little about its tokens, and
// a server that sends it also reports the prompt's real size.
func messageTokens(m llm.Message) int {
	n := estimate(m.Text) + 4 + imageTokens(m.Images)
	for _, c := range m.ToolCalls {
		n += estimate(c.Name) + estimate(c.Arguments)
	}
	return n
}

func specTokens(specs []llm.ToolSpec) int {
	b, _ := json.Marshal(specs)
	return estimate(string(b))
}

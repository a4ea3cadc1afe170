package agent

import (
	"fmt"

	"gatehouse/internal/llm"
)

// shortenForSummary shortens the longest texts of msgs (a copy; the history
// is untouched) until the summary request fits budget tokens as the server
// would count them, keeping each text's start and end and saying how much
// was cut. Calls and results stay as they are, so every call keeps its
// result. It gives up after a bounded number of cuts: the request is then
// sent as it is and a refusal says the rest.
func (a *Agent) shortenForSummary(msgs []llm.Message, budget int) []llm.Message {
	size := 0
	for _, m := range msgs {
		size += a.scaled(messageTokens(m))
	}
	if size <= budget {
		return msgs
	}
	out := append([]llm.Message(nil), msgs...)
	for range 64 {
		if size <= budget {
			break
		}
		i := longestText(out)
		if i < 0 || len(out[i].Text) < 400 {
			break
		}
		m := out[i]
		before := a.scaled(messageTokens(m))
		m.Text = halve(m.Text)
		size += a.scaled(messageTokens(m)) - before
		out[i] = m
	}
	return out
}

// longestText is the index of the message with the longest text, or -1.
func longestText(msgs []llm.Message) int {
	best, n := -1, 0
	for i, m := range msgs {
		if len(m.Text) > n {
			best, n = i, len(m.Text)
		}
	}
	return best
}

// halve keeps the first and last quarter of s (on rune boundaries) and says
// how much of the middle was left out.
func halve(s string) string {
	r := []rune(s)
	q := len(r) / 4
	return fmt.Sprintf("%s\n[… %d characters left out of this summary's input …]\n%s", string(r[:q]), len(r)-2*q, string(r[len(r)-q:]))
}

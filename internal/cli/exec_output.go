package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"gatehouse/internal/protocol"
	"gatehouse/internal/termsafe"
)

// jsonLines prints each event as one JSON line, up to and including the
// turn's turn.stopped; events after it (processes ending with the command)
// are not printed, so turn.stopped is always the last line.
type jsonLines struct {
	w       io.Writer
	stopped bool
	// team: the lead's turn.stopped does not end the output; the run
	// ends it (teamEnd) once the team is quiet.
	team teamEnd
}

func (j *jsonLines) Emit(e protocol.Event) {
	if j.stopped || j.team.ended() {
		return
	}
	b, err := json.Marshal(e)
	if err != nil {
		b, _ = json.Marshal(protocol.Event{Seq: e.Seq, SessionID: e.SessionID, TurnID: e.TurnID, Type: e.Type,
			Payload: map[string]string{"marshalError": err.Error()}})
	}
	j.w.Write(append(b, '\n'))
	// A child's events carry the call of the parent that runs it
	// (parentCallId) and its agent; only the parent's turn.stopped ends.
	j.stopped = e.Type == protocol.TurnStopped && e.ParentCallID == "" && !j.team.on
}

// textOutput prints the assistant's text to stdout as it streams, each tool
// call and a closing summary to stderr.
type textOutput struct {
	stdout, stderr io.Writer
	started        time.Time
	atLineStart    bool
	calls          int
	stopped        bool
	team           teamEnd // as jsonLines'
}

func (t *textOutput) Emit(e protocol.Event) {
	if t.stopped || t.team.ended() {
		return
	}
	if e.ParentCallID != "" {
		t.child(e)
		return
	}
	switch p := e.Payload.(type) {
	case protocol.TeamMessage:
		fmt.Fprintf(t.stderr, "  %s → %s: %s\n", termsafe.Line(p.From), termsafe.Line(p.To), short(p.Text, 120))
	case protocol.TeamNotice:
		fmt.Fprintf(t.stderr, "  team: %s\n", termsafe.Line(p.Text))
	case protocol.TurnStartedPayload:
		t.started, t.atLineStart = time.Now(), true
	case protocol.MessageDeltaPayload:
		if p.Text != "" {
			io.WriteString(t.stdout, termsafe.Text(p.Text))
			t.atLineStart = strings.HasSuffix(p.Text, "\n")
		}
	case protocol.MessageDonePayload:
		if !t.atLineStart {
			io.WriteString(t.stdout, "\n")
			t.atLineStart = true
		}
	case protocol.ToolStartedPayload:
		t.calls++
		fmt.Fprintf(t.stderr, "→ %s %s\n", termsafe.Line(p.Tool), short(string(p.Args), 120))
	case protocol.ToolFinishedPayload:
		if p.IsError {
			fmt.Fprintf(t.stderr, "  %s failed: %s\n", termsafe.Line(p.Tool), errorMessage(p.Result))
		}
	case protocol.TurnStoppedPayload:
		t.stopped = !t.team.on
		if p.Plan != nil {
			// plan mode: the plan is the turn's answer.
			if !t.atLineStart {
				io.WriteString(t.stdout, "\n")
			}
			io.WriteString(t.stdout, termsafe.Text(strings.TrimRight(p.Plan.Plan, "\n"))+"\n")
		}
		line := fmt.Sprintf("gatehouse: %s · %d tool call%s · %d tokens · %.1fs", p.Reason, t.calls, plural(t.calls),
			p.Usage.TotalTokens, time.Since(t.started).Seconds())
		if p.Error != "" {
			line += " · " + termsafe.Line(p.Error)
		}
		fmt.Fprintln(t.stderr, line)
	}
}

// child prints a subagent's calls and its end to stderr, named by its
// agent; its text is its parent's business (the delegate call's result).
func (t *textOutput) child(e protocol.Event) {
	switch p := e.Payload.(type) {
	case protocol.ToolStartedPayload:
		fmt.Fprintf(t.stderr, "  %s › %s %s\n", termsafe.Line(e.Agent), termsafe.Line(p.Tool), short(string(p.Args), 100))
	case protocol.ToolFinishedPayload:
		if p.IsError {
			fmt.Fprintf(t.stderr, "    %s › %s failed: %s\n", termsafe.Line(e.Agent), termsafe.Line(p.Tool), errorMessage(p.Result))
		}
	case protocol.TurnStoppedPayload:
		fmt.Fprintf(t.stderr, "  %s: %s · %d tokens\n", termsafe.Line(e.Agent), p.Reason, p.Usage.TotalTokens)
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// short cuts s to n characters on one line, its control characters
// escaped (model-supplied text never reaches the terminal raw).
func short(s string, n int) string {
	s = termsafe.Line(strings.Join(strings.Fields(s), " "))
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// errorMessage is the message of a tool's error result, else the result.
func errorMessage(result json.RawMessage) string {
	var r struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(result, &r) == nil && r.Error.Message != "" {
		return termsafe.Line(r.Error.Message)
	}
	return short(string(result), 200)
}

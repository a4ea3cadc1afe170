package approval

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"

	"gatehouse/internal/protocol"
)

// Terminal is the gateway of headless runs with a terminal: it prints the
// preview to out and reads the answer from in, one request at a time.
// When in ends, every request still to be answered is rejected.
type Terminal struct {
	in  io.Reader
	out io.Writer

	mu    sync.Mutex // one question at a time
	once  sync.Once
	lines chan string
}

// NewTerminal asks on out and reads answers from in.
func NewTerminal(in io.Reader, out io.Writer) *Terminal {
	return &Terminal{in: in, out: out}
}

// HeadlessGateway returns the gateway of `gatehouse exec`: the terminal
// when in and out are both one, and otherwise a gateway that rejects every
// request, so a call that needs approval ends the turn as
// blocked_by_approval with nothing changed.
func HeadlessGateway(in, out *os.File) Gateway {
	if IsTerminal(in) && IsTerminal(out) {
		return NewTerminal(in, out)
	}
	return RejectAll{Note: "approval needed, but there is no terminal to ask on (run with --approval auto, or in a terminal)"}
}

// IsTerminal reports whether f is a character device (a terminal).
func IsTerminal(f *os.File) bool {
	if f == nil {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func (t *Terminal) readLines() {
	sc := bufio.NewScanner(t.in)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		t.lines <- sc.Text()
	}
	close(t.lines)
}

// Ask implements Gateway.
func (t *Terminal) Ask(ctx context.Context, req Request) (protocol.Decision, error) {
	d, err := t.ask(ctx, req)
	if errors.Is(err, errInputClosed) {
		fmt.Fprintln(t.out, "\n(no answer: rejected)")
		return protocol.Decision{Kind: protocol.DecisionReject, Note: "no answer: " + err.Error()}, nil
	}
	return d, err
}

func (t *Terminal) ask(ctx context.Context, req Request) (protocol.Decision, error) {
	t.once.Do(func() {
		t.lines = make(chan string)
		go t.readLines()
	})
	t.mu.Lock()
	defer t.mu.Unlock()
	t.show(req)
	for {
		choices := "[y] approve once"
		if req.Rule != nil {
			choices += ", [s] for this session (" + req.Rule.Summary + ")"
		}
		if req.Preview.Partial {
			choices += ", [p] only some files or hunks"
		}
		choices += ", [n] reject"
		line, err := t.prompt(ctx, choices+": ")
		if err != nil {
			return protocol.Decision{}, err
		}
		var d protocol.Decision
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			d.Kind = protocol.DecisionOnce
		case "s", "session":
			d.Kind = protocol.DecisionSession
		case "n", "no":
			note, err := t.prompt(ctx, "note for the model (optional): ")
			if err != nil {
				return protocol.Decision{}, err
			}
			d = protocol.Decision{Kind: protocol.DecisionReject, Note: strings.TrimSpace(note)}
		case "p":
			ids, err := t.prompt(ctx, "files or hunk ids (path#n) to apply, separated by spaces: ")
			if err != nil {
				return protocol.Decision{}, err
			}
			d.Kind = protocol.DecisionPartial
			for _, id := range strings.Fields(ids) {
				if strings.Contains(id, "#") {
					d.Hunks = append(d.Hunks, id)
				} else {
					d.Files = append(d.Files, id)
				}
			}
		default:
			fmt.Fprintln(t.out, "please answer y, s, p or n")
			continue
		}
		if err := Validate(req, d); err != nil {
			fmt.Fprintln(t.out, err)
			continue
		}
		return d, nil
	}
}

var errInputClosed = errors.New("the terminal input ended")

// prompt prints p and waits for a line.
func (t *Terminal) prompt(ctx context.Context, p string) (string, error) {
	fmt.Fprint(t.out, p)
	select {
	case l, ok := <-t.lines:
		if !ok {
			return "", errInputClosed
		}
		return l, nil
	case <-ctx.Done():
		fmt.Fprintln(t.out, "\n(cancelled)")
		return "", ctx.Err()
	}
}

// show prints what the call will do.
func (t *Terminal) show(req Request) {
	w := t.out
	fmt.Fprintf(w, "\n── approval needed: %s\n", req.Preview.Summary)
	p := req.Preview
	switch p.Kind {
	case protocol.PreviewFiles:
		for _, f := range p.Files {
			from := ""
			if f.MovedFrom != "" {
				from = " (from " + f.MovedFrom + ")"
			}
			fmt.Fprintf(w, "%s %s%s +%d −%d\n", f.Operation, f.Path, from, f.Added, f.Removed)
			if f.ResolvedFrom != "" {
				fmt.Fprintf(w, "  %s is really %s\n", f.MovedFrom, f.ResolvedFrom)
			}
			if f.ResolvedPath != "" {
				fmt.Fprintf(w, "  %s is really %s\n", f.Path, f.ResolvedPath)
			}
			if f.Replaces {
				fmt.Fprintf(w, "  ⚠ replaces an existing file\n")
				io.WriteString(w, f.ReplacedDiff)
			}
			for _, h := range f.Hunks {
				fmt.Fprintf(w, "  hunk %s\n", h.ID)
			}
			io.WriteString(w, f.Diff)
		}
	case protocol.PreviewCommand:
		c := p.Command
		fmt.Fprintf(w, "action: %s\n", c.Action)
		if c.Command != "" {
			fmt.Fprintf(w, "command: %s\n", c.Command)
		}
		if c.Cwd != "" {
			fmt.Fprintf(w, "in: %s\n", c.Cwd)
		}
		if c.Input != "" {
			fmt.Fprintf(w, "input: %q\n", c.Input)
		}
		if c.ParseError != "" {
			fmt.Fprintf(w, "! cannot parse: %s\n", c.ParseError)
		}
		for _, s := range c.Segments {
			fmt.Fprintf(w, "  • %s%s\n", s.Text, warnings(s))
		}
	default:
		fmt.Fprintln(w, p.ArgsText)
	}
}

func warnings(s protocol.CommandSegment) string {
	var ws []string
	if s.Destructive != "" {
		ws = append(ws, s.Destructive)
	}
	if s.Deletes {
		ws = append(ws, "deletes")
	}
	where := func(p string) string {
		if slices.Contains(s.ProtectedPaths, p) {
			return p + " (a protected place)"
		}
		return p + " (outside the workspace)"
	}
	for _, p := range s.ReadsOutside {
		ws = append(ws, "reads "+where(p))
	}
	for _, p := range s.WritesOutsideTo {
		ws = append(ws, "writes "+where(p))
	}
	for _, f := range []struct {
		on   bool
		text string
	}{{s.WritesOutside && len(s.WritesOutsideTo) == 0, "writes outside the workspace"}, {s.Network, "network"}, {s.Elevates, "elevates privileges"}, {s.WritesGit, "writes into .git (can make git run code)"}, {s.Opaque, "runs code a rule cannot see"}} {
		if f.on {
			ws = append(ws, f.text)
		}
	}
	if len(ws) == 0 {
		return ""
	}
	return "  ⚠ " + strings.Join(ws, ", ")
}

package approval

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"gatehouse/internal/protocol"
	"gatehouse/internal/termsafe"
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
	saves SaveFiles
}

// SaveFiles are the files an "always" answer saves its rule in: the
// user's file for this workspace and the user's file for everywhere.
type SaveFiles struct{ Workspace, Everywhere string }

// OfferAlways makes the terminal offer "always" beside "for this session"
// (the gate's Config.Save must be set: it saves the rule), naming where
// each choice is saved.
func (t *Terminal) OfferAlways(f SaveFiles) { t.saves = f }

// Saved implements SaveNotifier: it says where the rule went, or why not.
func (t *Terminal) Saved(_ Request, r StandingRule, err error) {
	if err != nil {
		fmt.Fprintf(t.out, "not saved: %s (the rule lasts for this session)\n", termsafe.Line(err.Error()))
		return
	}
	fmt.Fprintf(t.out, "saved rule %s (%s) in %s\n", termsafe.Line(r.ID), termsafe.Line(r.Summary), termsafe.Line(r.File))
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
		always := req.Rule != nil && t.saves.Workspace != "" && t.saves.Everywhere != ""
		if req.Rule != nil {
			choices += ", [s] for this session (" + termsafe.Line(req.Rule.Summary) + ")"
		}
		if always {
			choices += ", [a] always, for this workspace (saved in " + termsafe.Line(t.saves.Workspace) +
				"), [e] always, everywhere (saved in " + termsafe.Line(t.saves.Everywhere) + ")"
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
		case "a", "always":
			d.Kind, d.Scope = protocol.DecisionAlways, "workspace"
		case "e", "everywhere":
			d.Kind, d.Scope = protocol.DecisionAlways, "everywhere"
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
			fmt.Fprintln(t.out, "please answer y, s, a, e, p or n")
			continue
		}
		if d.Kind == protocol.DecisionAlways && !always {
			fmt.Fprintln(t.out, "no rule to save for this call: answer y, s, p or n")
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

// show prints what the call will do. Every text that came from the model
// (a command, a path, a diff) is escaped: a control sequence in it cannot
// redraw the terminal. The warnings are those every host shows.
func (t *Terminal) show(req Request) {
	w := t.out
	L, T := termsafe.Line, termsafe.Text
	if req.Agent != "" {
		fmt.Fprintf(w, "\n── approval needed (%s › %s): %s\n", L(req.Agent), L(req.Tool), L(req.Preview.Summary))
	} else {
		fmt.Fprintf(w, "\n── approval needed: %s\n", L(req.Preview.Summary))
	}
	for _, l := range HookLines(req.Hooks, req.Rewrite) {
		fmt.Fprintln(w, L(l))
	}
	p := req.Preview
	switch p.Kind {
	case protocol.PreviewFiles:
		for _, f := range p.Files {
			from := ""
			if f.MovedFrom != "" {
				from = " (from " + L(f.MovedFrom) + ")"
			}
			fmt.Fprintf(w, "%s %s%s +%d −%d\n", f.Operation, L(f.Path), from, f.Added, f.Removed)
			if f.ResolvedFrom != "" {
				fmt.Fprintf(w, "  %s is really %s\n", L(f.MovedFrom), L(f.ResolvedFrom))
			}
			if f.ResolvedPath != "" {
				fmt.Fprintf(w, "  %s is really %s\n", L(f.Path), L(f.ResolvedPath))
			}
			if f.Replaces {
				fmt.Fprintf(w, "  ⚠ replaces an existing file\n")
				io.WriteString(w, T(f.ReplacedDiff))
			}
			for _, h := range f.Hunks {
				fmt.Fprintf(w, "  hunk %s\n", L(h.ID))
			}
			io.WriteString(w, T(f.Diff))
		}
	case protocol.PreviewCommand:
		c := p.Command
		fmt.Fprintf(w, "action: %s\n", L(c.Action))
		if c.Command != "" {
			fmt.Fprintf(w, "command: %s\n", L(c.Command))
		}
		if c.Cwd != "" {
			fmt.Fprintf(w, "in: %s\n", L(c.Cwd))
		}
		if c.Input != "" {
			fmt.Fprintf(w, "input: %q\n", c.Input)
		}
		if l := SandboxLine(c); l != "" {
			fmt.Fprintf(w, "sandbox: %s\n", l)
		}
		if c.ParseError != "" {
			fmt.Fprintf(w, "! cannot parse: %s\n", L(c.ParseError))
		}
		for _, s := range c.Segments {
			ws := s.Warnings
			if ws == nil {
				ws = SegmentWarnings(s)
			}
			line := "  • " + L(s.Text)
			if len(ws) > 0 {
				line += "  ⚠ " + L(strings.Join(ws, "; "))
			}
			fmt.Fprintln(w, line)
		}
	default:
		fmt.Fprintln(w, T(p.ArgsText))
	}
}

package approval

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

func terminalRequest() Request {
	return Request{ApprovalID: "approval-1", Tool: "apply_patch",
		Preview: protocol.Preview{Kind: protocol.PreviewFiles, Summary: "apply_patch: update a.txt, +1 −1", Partial: true,
			Files: []protocol.FilePreview{{Path: "a.txt", Operation: protocol.FileUpdate, Diff: "@@ -1 +1 @@\n-a\n+b\n",
				Hunks: []protocol.HunkPreview{{ID: "a.txt#1"}}}}},
		Rule: &protocol.Rule{Tool: "apply_patch", Files: []string{"a.txt"}, Summary: "apply_patch on a.txt"}}
}

func TestTerminalGateway(t *testing.T) {
	cases := []struct {
		input string
		want  protocol.Decision
	}{
		{"y\n", protocol.Decision{Kind: protocol.DecisionOnce}},
		{"s\n", protocol.Decision{Kind: protocol.DecisionSession}},
		{"what\nn\nuse tabs\n", protocol.Decision{Kind: protocol.DecisionReject, Note: "use tabs"}},
		{"p\nb.txt\np\na.txt#1\n", protocol.Decision{Kind: protocol.DecisionPartial, Hunks: []string{"a.txt#1"}}},
		{"", protocol.Decision{Kind: protocol.DecisionReject, Note: "no answer: the terminal input ended"}},
	}
	for _, c := range cases {
		var out strings.Builder
		d, err := NewTerminal(strings.NewReader(c.input), &out).Ask(context.Background(), terminalRequest())
		if err != nil || d.Kind != c.want.Kind || d.Note != c.want.Note || strings.Join(d.Hunks, ",") != strings.Join(c.want.Hunks, ",") {
			t.Errorf("%q: %+v %v", c.input, d, err)
		}
		if !strings.Contains(out.String(), "+b") || !strings.Contains(out.String(), "apply_patch on a.txt") {
			t.Errorf("%q: shown %q", c.input, out.String())
		}
	}
}

func TestTerminalCancel(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	defer r.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	var out strings.Builder
	if _, err := NewTerminal(r, &out).Ask(ctx, terminalRequest()); err == nil {
		t.Fatal("a cancelled question returned an answer")
	}
}

func TestHeadlessWithoutATerminalRejects(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "in")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := HeadlessGateway(f, f).Ask(context.Background(), terminalRequest())
	if err != nil || d.Kind != protocol.DecisionReject || d.Note == "" {
		t.Fatalf("%+v %v", d, err)
	}
}

// TestTerminalTellsTheWholeTruth: the terminal host shows what the dialog
// shows: paths read outside, destructive words, resolved paths, replaces.
func TestTerminalTellsTheWholeTruth(t *testing.T) {
	req := Request{ApprovalID: "approval-2", Tool: "bash", Preview: protocol.Preview{Kind: protocol.PreviewCommand, Summary: "bash",
		Command: &protocol.CommandPreview{Action: "exec", Command: "cat ~/.ssh/id_rsa; git push -f", Segments: []protocol.CommandSegment{
			{Text: "cat ~/.ssh/id_rsa", ReadsOutside: []string{"~/.ssh/id_rsa"}},
			{Text: "git push -f", Network: true, Destructive: "rewrites history on the remote"},
		}}}}
	var out strings.Builder
	NewTerminal(strings.NewReader("n\n\n"), &out).Ask(context.Background(), req)
	for _, want := range []string{"• cat ~/.ssh/id_rsa  ⚠ reads ~/.ssh/id_rsa (outside the workspace)\n", "• git push -f  ⚠ rewrites history on the remote; uses the network\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in %q", want, out.String())
		}
	}
	req = terminalRequest()
	req.Preview.Files[0].ResolvedPath, req.Preview.Files[0].Replaces = "src/a.txt", true
	out.Reset()
	NewTerminal(strings.NewReader("n\n\n"), &out).Ask(context.Background(), req)
	if !strings.Contains(out.String(), "  a.txt is really src/a.txt\n  ⚠ replaces an existing file\n") {
		t.Errorf("shown %q", out.String())
	}
}

// TestTerminalShowsExactScope: the `gatehouse exec` prompt spells out what
// "s" covers, and flags a write into .git.
func TestTerminalShowsExactScope(t *testing.T) {
	ws := testWorkspace(t)
	g := New(Config{Mode: func() Mode { return Safe }, Gateway: NewTerminal(strings.NewReader(""), &strings.Builder{}), Workspace: ws})
	for _, c := range []struct{ cmd, want string }{
		{"npm test 2>&1", "[s] for this session (run exactly `npm test` (exec, in the workspace root; no other arguments, assignments or redirections but 2>&1 and /dev/null))"},
		{"echo x > .git/commondir", "⚠ writes into .git (can make git run code)"},
	} {
		cmd := &protocol.CommandPreview{Action: "exec", Command: c.cmd, Cwd: ws.Root()}
		pv, k := g.describe("bash", nil, &tools.Prepared{Command: cmd}, false)
		var out strings.Builder
		NewTerminal(strings.NewReader("n\n\n"), &out).Ask(context.Background(), Request{Tool: "bash", Preview: pv, Rule: proposal("bash", k)})
		if !strings.Contains(out.String(), c.want) {
			t.Errorf("%q: shown %q, want %q in it", c.cmd, out.String(), c.want)
		}
	}
}

// TestTerminalEscapesTheCommand: a command carrying control sequences
// (erase the line, move up, draw another command) reaches the terminal
// escaped, with its real text and warnings.
func TestTerminalEscapesTheCommand(t *testing.T) {
	ws := testWorkspace(t)
	g := New(Config{Mode: func() Mode { return Safe }, Gateway: NewTerminal(strings.NewReader(""), &strings.Builder{}), Workspace: ws})
	cmd := "echo safe\x1b[2K\x1b[1A\r$ ls; rm -rf ~/x"
	pv, k := g.describe("bash", nil, &tools.Prepared{Command: &protocol.CommandPreview{Action: "exec", Command: cmd, Cwd: ws.Root()}}, false)
	if pv.Command.Sandbox != "not confined — can write anywhere you can" {
		t.Errorf("the preview's sandbox line: %q", pv.Command.Sandbox)
	}
	var out strings.Builder
	NewTerminal(strings.NewReader("n\n\n"), &out).Ask(context.Background(), Request{Tool: "bash", Preview: pv, Rule: proposal("bash", k)})
	got := out.String()
	if strings.ContainsAny(got, "\x1b\r") {
		t.Fatalf("a control character reached the terminal: %q", got)
	}
	for _, want := range []string{`command: echo safe\e[2K\e[1A\r$ ls; rm -rf ~/x`, "• rm -rf ~/x  ⚠", "deletes files"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in %q", want, got)
		}
	}
}

// TestTerminalOffersAlways: with somewhere to save, the terminal offers
// "always" for this workspace or everywhere, naming each file, and answers
// with the scope; without, or without a rule, "a" is refused and asked again.
func TestTerminalOffersAlways(t *testing.T) {
	files := SaveFiles{Workspace: "/cfg/policy.d/ab.toml", Everywhere: "/cfg/policy.toml"}
	for _, c := range []struct {
		input, scope string
		offer        bool
		rule         bool
		want         protocol.DecisionKind
	}{
		{"a\n", "workspace", true, true, protocol.DecisionAlways},
		{"e\n", "everywhere", true, true, protocol.DecisionAlways},
		{"a\ny\n", "", false, true, protocol.DecisionOnce},
		{"a\ny\n", "", true, false, protocol.DecisionOnce},
	} {
		var out strings.Builder
		term := NewTerminal(strings.NewReader(c.input), &out)
		if c.offer {
			term.OfferAlways(files)
		}
		req := terminalRequest()
		if !c.rule {
			req.Rule = nil
		}
		d, err := term.Ask(context.Background(), req)
		if err != nil || d.Kind != c.want || d.Scope != c.scope {
			t.Errorf("%q offer=%v rule=%v: %+v %v", c.input, c.offer, c.rule, d, err)
		}
		shown := strings.Contains(out.String(), "[a] always, for this workspace (saved in /cfg/policy.d/ab.toml), [e] always, everywhere (saved in /cfg/policy.toml)")
		if shown != (c.offer && c.rule) {
			t.Errorf("%q offer=%v rule=%v: always shown %v:\n%s", c.input, c.offer, c.rule, shown, out.String())
		}
		if !c.offer || !c.rule {
			if !strings.Contains(out.String(), "no rule to save for this call") {
				t.Errorf("%q: the refusal is not said:\n%s", c.input, out.String())
			}
		}
	}
	var out strings.Builder
	term := NewTerminal(strings.NewReader(""), &out)
	term.Saved(Request{}, StandingRule{Rule: protocol.Rule{ID: "p-1", Summary: "allow: run `npm test`"}, File: "/cfg/policy.d/ab.toml"}, nil)
	term.Saved(Request{}, StandingRule{}, errors.New("policy: the file does not load"))
	if !strings.Contains(out.String(), "saved rule p-1 (allow: run `npm test`) in /cfg/policy.d/ab.toml") ||
		!strings.Contains(out.String(), "not saved: policy: the file does not load (the rule lasts for this session)") {
		t.Errorf("saved: %q", out.String())
	}
}

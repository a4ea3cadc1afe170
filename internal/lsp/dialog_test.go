//go:build linux

package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"gatehouse/internal/approval"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
	"gatehouse/internal/tools/files"
	"gatehouse/internal/workspace"
)

// dialog is a gate in manual mode with the real GUI gateway, the
// language servers' check of each waiting request (Config.Diagnose) and
// their after-edit middleware, around apply_patch: a session's chain.
type dialog struct {
	gui    *approval.GUI
	handle tools.Handler
	mu     sync.Mutex
	events []protocol.Event
	asked  chan protocol.ApprovalRequestedPayload
	diags  chan protocol.ApprovalDiagnosticsPayload
}

func (d *dialog) Publish(e protocol.Event) {
	d.mu.Lock()
	d.events = append(d.events, e)
	d.mu.Unlock()
	switch p := e.Payload.(type) {
	case protocol.ApprovalRequestedPayload:
		d.asked <- p
	case protocol.ApprovalDiagnosticsPayload:
		d.diags <- p
	}
}

func newDialog(t *testing.T, ws *workspace.Workspace, m *Manager, timeout time.Duration) *dialog {
	d := &dialog{gui: approval.NewGUI("s1"), asked: make(chan protocol.ApprovalRequestedPayload, 4), diags: make(chan protocol.ApprovalDiagnosticsPayload, 4)}
	t.Cleanup(d.gui.Close)
	gate := approval.New(approval.Config{Mode: func() approval.Mode { return approval.Manual }, Gateway: d.gui, Session: "s1", Events: d,
		Diagnose: func(ctx context.Context, fs []protocol.FilePreview) protocol.ApprovalDiagnosticsPayload {
			ctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			return m.Proposal(ctx, fs)
		}})
	d.handle = tools.Chain(files.NewApplyPatch(ws), tools.Plan(nil), gate.Middleware, m.Middleware)
	return d
}

func (d *dialog) run(patch string) chan tools.Result {
	args, _ := json.Marshal(map[string]string{"patch": patch})
	out := make(chan tools.Result, 1)
	go func() {
		res, _ := d.handle(context.Background(), tools.Call{ID: "c1", Name: "apply_patch", Args: args})
		out <- res
	}()
	return out
}

func waitFor[T any](t *testing.T, ch chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(90 * time.Second):
		t.Fatalf("no %s", what)
	}
	var zero T
	return zero
}

// TestTheDialogShowsWhatAPatchIntroducesBeforeItIsWritten: while the
// approval of a patch that breaks a Go build waits, approval.diagnostics
// says "checking", then that the hunk introduces 1 error, and the file is
// untouched (bytes and mtime); once approved, the result the model reads
// ends with the same error.
func TestTheDialogShowsWhatAPatchIntroducesBeforeItIsWritten(t *testing.T) {
	needServer(t, "gopls")
	root := t.TempDir()
	plant(t, root, map[string]string{"go.mod": goMod, "main.go": goClean})
	ws := openWorkspace(t, root)
	m := newTestManager(t, ws.Root(), Options{})
	file := filepath.Join(ws.Root(), "main.go")
	fi0, _ := os.Stat(file)
	d := newDialog(t, ws, m, 60*time.Second)
	res := d.run("*** Begin Patch\n*** Update File: main.go\n@@\n func main() {\n-\tfmt.Println(\"hi\")\n+\tfmt.Println(undefinedName)\n }\n*** End Patch")
	req := waitFor(t, d.asked, "approval request")
	if p := waitFor(t, d.diags, "checking"); p.State != "checking" || p.ApprovalID != req.ApprovalID {
		t.Fatalf("first: %+v", p)
	}
	p := waitFor(t, d.diags, "diagnostics")
	if p.ApprovalID != req.ApprovalID || p.State != "done" || len(p.Files) != 1 || p.Files[0].Hunks["main.go#1"] != 1 ||
		!strings.Contains(Format(p.Files[0].Introduced[0]), "main.go:6:14 error undefined: undefinedName") {
		t.Fatalf("diagnostics: %+v", p)
	}
	if got := approval.DiagnosticsSummary(p); got != "introduces 1 error in main.go" {
		t.Errorf("summary %q", got)
	}
	b, _ := os.ReadFile(file)
	fi1, _ := os.Stat(file)
	if string(b) != goClean || !fi1.ModTime().Equal(fi0.ModTime()) {
		t.Fatal("the check wrote the file")
	}
	if err := d.gui.Resolve(req.ApprovalID, protocol.Decision{Kind: protocol.DecisionOnce}); err != nil {
		t.Fatal(err)
	}
	r := waitFor(t, res, "result")
	if !strings.Contains(string(r.Output), "main.go:6:14 error undefined: undefinedName") {
		t.Fatalf("result %s", r.Output)
	}
}

// TestAHangingServerDoesNotHoldTheDialog: with a server that never
// answers, the request is announced at once with "checking", the check
// ends at its timeout with a line saying so, and approving runs the call.
func TestAHangingServerDoesNotHoldTheDialog(t *testing.T) {
	m, root, _ := fakeManager(t, "hang", Options{Timeout: time.Second})
	plant(t, root, map[string]string{"a.txt": "one\n"})
	ws := openWorkspace(t, root)
	d := newDialog(t, ws, m, 500*time.Millisecond)
	start := time.Now()
	res := d.run("*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+BAD\n*** End Patch")
	req := waitFor(t, d.asked, "approval request")
	waitFor(t, d.diags, "checking")
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("the request waited %s for the server", took)
	}
	p := waitFor(t, d.diags, "timeout")
	if p.State != "timeout" || p.Note != "fake timed out after 500ms" {
		t.Fatalf("%+v", p)
	}
	d.gui.Resolve(req.ApprovalID, protocol.Decision{Kind: protocol.DecisionOnce})
	r := waitFor(t, res, "result")
	if r.IsError {
		t.Fatalf("%s", r.Output)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "BAD\n" {
		t.Fatalf("file %q", b)
	}
}

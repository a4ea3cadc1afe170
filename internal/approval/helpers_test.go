//go:build linux

package approval_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"gatehouse/internal/approval"
	"gatehouse/internal/proc"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
	"gatehouse/internal/tools/builtin"
	"gatehouse/internal/workspace"
)

func TestMain(m *testing.M) {
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "OPENAI_") {
			os.Unsetenv(k)
		}
	}
	os.Exit(m.Run())
}

// harness is one session's gate around the real built-in tools in a temp
// workspace, with the real GUI gateway. answer decides each request from a
// goroutine of its own, as the page would; nil leaves it waiting.
type harness struct {
	t      *testing.T
	root   string
	ws     *workspace.Workspace
	procs  *proc.Registry
	gui    *approval.GUI
	gate   *approval.Gate
	router *tools.Router

	mu      sync.Mutex
	mode    approval.Mode
	answer  func(protocol.ApprovalRequestedPayload) (protocol.Decision, bool)
	events  []protocol.Event
	records []approval.Record
	watches map[int]watchSub // the gate's file subscriptions (Config.Watch)
	// standing is the standing policy (Config.Standing); audit what the
	// gate logged (Config.Audit).
	standing []approval.StandingRule
	audit    []approval.AuditEntry
	nextSub  int
}

type watchSub struct {
	paths    []string
	onChange func([]string)
}

func newHarness(t *testing.T, mode approval.Mode, tree map[string]string) *harness {
	t.Helper()
	return newHarnessIn(t, "s1", mode, tree)
}

// newHarnessIn is newHarness for the session named session.
func newHarnessIn(t *testing.T, session string, mode approval.Mode, tree map[string]string) *harness {
	t.Helper()
	root := t.TempDir()
	for p, c := range tree {
		full := filepath.Join(root, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := workspace.New(root, workspace.Options{ProtectedDirs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, root: ws.Root(), ws: ws, mode: mode}
	h.procs = proc.NewRegistry(proc.Options{Shell: "/bin/bash", PortScan: -1, KillGrace: 300 * time.Millisecond})
	t.Cleanup(h.procs.CloseAll)
	reg, err := builtin.Registry(ws, h.procs)
	if err != nil {
		t.Fatal(err)
	}
	// A tool that is not built in and does not describe its calls.
	err = reg.Add(tools.Spec{Name: "notify", Parameters: json.RawMessage(`{"type":"object"}`)},
		func(_ context.Context, args json.RawMessage) (tools.Result, error) {
			return tools.OK(map[string]any{"sent": true})
		})
	if err != nil {
		t.Fatal(err)
	}
	h.gui = approval.NewGUI(session)
	t.Cleanup(h.gui.Close)
	h.gate = approval.New(approval.Config{
		Mode:      func() approval.Mode { h.mu.Lock(); defer h.mu.Unlock(); return h.mode },
		Gateway:   h.gui,
		Session:   session,
		Events:    h,
		Workspace: ws,
		Hook:      func(r approval.Record) { h.mu.Lock(); h.records = append(h.records, r); h.mu.Unlock() },
		Watch:     h.watch,
		Standing:  func() []approval.StandingRule { h.mu.Lock(); defer h.mu.Unlock(); return h.standing },
		Audit:     func(e approval.AuditEntry) { h.mu.Lock(); h.audit = append(h.audit, e); h.mu.Unlock() },
		Save: func(r protocol.Rule, scope string) (approval.StandingRule, error) {
			// As the policy package saves it: exact words, a relative folder.
			s := approval.StandingRule{Rule: r, Decision: approval.VerdictAllow, Layer: scope, File: scope + ".toml"}
			s.ID, s.Cwd = fmt.Sprintf("p-%d", len(h.standing)+1), ""
			for i, c := range r.Commands {
				s.Commands[i] = approval.LiteralPattern(c)
			}
			h.mu.Lock()
			h.standing = append(h.standing, s)
			h.mu.Unlock()
			return s, nil
		},
	})
	h.router = tools.NewRouter(reg, tools.Policy{}, tools.OutputCap(256<<10), tools.Plan(nil), h.gate.Middleware)
	return h
}

// Publish implements approval.Publisher.
func (h *harness) Publish(e protocol.Event) {
	h.mu.Lock()
	h.events = append(h.events, e)
	answer := h.answer
	h.mu.Unlock()
	if p, ok := e.Payload.(protocol.ApprovalRequestedPayload); ok && answer != nil {
		go func() {
			if d, ok := answer(p); ok {
				if err := h.gui.Resolve(p.ApprovalID, d); err != nil {
					h.t.Errorf("resolve %s: %v", p.ApprovalID, err)
				}
			}
		}()
	}
}

// watch is the gate's Config.Watch: it records the subscription, and
// changed fires it as a watcher would.
func (h *harness) watch(paths []string, onChange func([]string)) func() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.watches == nil {
		h.watches = map[int]watchSub{}
	}
	h.nextSub++
	id := h.nextSub
	h.watches[id] = watchSub{paths: paths, onChange: onChange}
	return func() { h.mu.Lock(); delete(h.watches, id); h.mu.Unlock() }
}

// changed reports path changed on disk to every subscription that watches
// it, as the watcher's goroutine would; it returns how many heard it.
func (h *harness) changed(path string) int {
	h.mu.Lock()
	var fire []func([]string)
	for _, w := range h.watches {
		for _, p := range w.paths {
			if p == path {
				fire = append(fire, w.onChange)
			}
		}
	}
	h.mu.Unlock()
	for _, f := range fire {
		f([]string{path})
	}
	return len(fire)
}

func (h *harness) setMode(m approval.Mode) { h.mu.Lock(); h.mode = m; h.mu.Unlock() }

func (h *harness) answerAll(d protocol.Decision) {
	h.onRequest(func(protocol.ApprovalRequestedPayload) (protocol.Decision, bool) { return d, true })
}

func (h *harness) onRequest(f func(protocol.ApprovalRequestedPayload) (protocol.Decision, bool)) {
	h.mu.Lock()
	h.answer = f
	h.mu.Unlock()
}

func (h *harness) requests() []protocol.ApprovalRequestedPayload {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []protocol.ApprovalRequestedPayload
	for _, e := range h.events {
		if p, ok := e.Payload.(protocol.ApprovalRequestedPayload); ok {
			out = append(out, p)
		}
	}
	return out
}

func (h *harness) allEvents() []protocol.Event {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]protocol.Event(nil), h.events...)
}

func (h *harness) resolutions() []protocol.ApprovalResolvedPayload {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []protocol.ApprovalResolvedPayload
	for _, e := range h.events {
		if p, ok := e.Payload.(protocol.ApprovalResolvedPayload); ok {
			out = append(out, p)
		}
	}
	return out
}

// run runs one call through the router and decodes its output.
func (h *harness) run(ctx context.Context, tool, args string) (tools.Result, map[string]any) {
	h.t.Helper()
	res, err := h.router.Run(ctx, tools.Call{ID: "c-" + tool, Name: tool, Args: json.RawMessage(args)})
	if err != nil {
		h.t.Fatalf("%s %s: %v", tool, args, err)
	}
	var out map[string]any
	json.Unmarshal(res.Output, &out)
	return res, out
}

func (h *harness) read(p string) string {
	b, err := os.ReadFile(filepath.Join(h.root, filepath.FromSlash(p)))
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

func errCode(out map[string]any) string {
	e, _ := out["error"].(map[string]any)
	c, _ := e["code"].(string)
	return c
}

func errMessage(out map[string]any) string {
	e, _ := out["error"].(map[string]any)
	c, _ := e["message"].(string)
	return c
}

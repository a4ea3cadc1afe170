//go:build linux

package policy

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
	"gatehouse/internal/proc"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
	"gatehouse/internal/tools/builtin"
	"gatehouse/internal/tools/web"
)

// answerer answers every dialog with decision and keeps what it was asked.
type answerer struct {
	mu       sync.Mutex
	decision protocol.Decision
	asked    []approval.Request
}

func (a *answerer) Ask(_ context.Context, r approval.Request) (protocol.Decision, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, r)
	return a.decision, nil
}

// session is one session's gate in manual mode around the real built-in
// tools and an MCP-named tool, its standing policy read from f's files and
// "always" saved into them as the app saves it: a new session is a restart.
func (f fixture) session(t *testing.T, d protocol.Decision) (func(tool string, args any) tools.Result, *answerer) {
	t.Helper()
	procs := proc.NewRegistry(proc.Options{Shell: "/bin/bash", PortScan: -1, KillGrace: 300 * time.Millisecond})
	t.Cleanup(procs.CloseAll)
	reg, err := tools.NewRegistry(builtin.ToolsWith(f.ws, procs, web.Config{Timeout: 300 * time.Millisecond})...)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"mcp__srv__echo", "mcp__srv__other"} {
		err := reg.Add(tools.Spec{Name: name, Parameters: json.RawMessage(`{"type":"object"}`)},
			func(context.Context, json.RawMessage) (tools.Result, error) {
				return tools.OK(map[string]any{"ok": true})
			})
		if err != nil {
			t.Fatal(err)
		}
	}
	a := &answerer{decision: d}
	src := NewSource(f.w)
	g := approval.New(approval.Config{
		Mode: func() approval.Mode { return approval.Manual }, Gateway: a, Session: "s", Workspace: f.ws,
		Standing: src.Rules,
		Save: func(r protocol.Rule, scope string) (approval.StandingRule, error) {
			return Add(f.w, Scope(scope), New{Decision: approval.VerdictAllow, Rule: r})
		},
	})
	rt := tools.NewRouter(reg, tools.Policy{}, tools.Plan(nil), g.Middleware)
	return func(tool string, args any) tools.Result {
		b, _ := json.Marshal(args)
		res, err := rt.Run(context.Background(), tools.Call{ID: "c", Name: tool, Args: b})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}, a
}

type call struct {
	tool string
	args any
}

// TestAlwaysKeepsTheOfferedScopeAfterARestart: for each kind of tool, the
// rule "Always allow" saves from the dialog's offer, read back from the
// file by a new session, allows the same call without asking and asks for
// every call the offer did not cover: no field of the offer is lost on the
// way (a domain, a file name that looks like a glob, a folder, an action,
// the tool's name).
func TestAlwaysKeepsTheOfferedScopeAfterARestart(t *testing.T) {
	for name, c := range map[string]struct {
		setup  func(root string)
		first  call
		others []call
	}{
		"web_fetch domain": {
			first: call{web.Name, map[string]string{"url": "https://example.com/guide?x=1"}},
			others: []call{
				{web.Name, map[string]string{"url": "https://docs.example.com/"}},
				{web.Name, map[string]string{"url": "https://example.com.evil.net/"}},
				{web.Name, map[string]string{"url": "https://other.net/"}},
			},
		},
		"file named like a glob": {
			first: call{"write_file", map[string]string{"path": "notes/a[1].txt", "content": "x"}},
			others: []call{
				{"write_file", map[string]string{"path": "notes/a1.txt", "content": "x"}},
				{"write_file", map[string]string{"path": "notes/b.txt", "content": "x"}},
			},
		},
		"file with a star": {
			first: call{"write_file", map[string]string{"path": "a*.md", "content": "x"}},
			others: []call{
				{"write_file", map[string]string{"path": "abc.md", "content": "x"}},
			},
		},
		"bash in a folder": {
			setup: func(root string) { os.MkdirAll(filepath.Join(root, "sub"), 0o755) },
			first: call{"bash", map[string]string{"action": "exec", "command": "echo hi", "cwd": "sub"}},
			others: []call{
				{"bash", map[string]string{"action": "exec", "command": "echo hi"}},
				{"bash", map[string]string{"action": "exec", "command": "echo hi there", "cwd": "sub"}},
				{"bash", map[string]string{"action": "start", "command": "echo hi", "cwd": "sub"}},
			},
		},
		"bash start": {
			first: call{"bash", map[string]string{"action": "start", "command": "sleep 0.1"}},
			others: []call{
				{"bash", map[string]string{"action": "exec", "command": "sleep 0.1"}},
			},
		},
		"mcp tool": {
			first:  call{"mcp__srv__echo", map[string]any{}},
			others: []call{{"mcp__srv__other", map[string]any{}}},
		},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			if c.setup != nil {
				c.setup(f.ws.Root())
			}
			run, a := f.session(t, protocol.Decision{Kind: protocol.DecisionAlways, Scope: "workspace"})
			run(c.first.tool, c.first.args)
			if len(a.asked) != 1 || a.asked[0].Rule == nil {
				t.Fatalf("the first call: %d dialogs, offer %+v", len(a.asked), a.asked)
			}
			offer := *a.asked[0].Rule
			p := Load(f.w)
			if len(p.Errors) > 0 || len(p.Rules) != 1 {
				t.Fatalf("saved: %+v %v", p.Rules, p.Errors)
			}
			if got := p.Rules[0].Summary; !strings.HasPrefix(got, "allow: ") {
				t.Errorf("summary %q", got)
			}

			// A restart: a new session reads the file.
			run, a = f.session(t, protocol.Decision{Kind: protocol.DecisionReject, Note: "no"})
			res := run(c.first.tool, c.first.args)
			if len(a.asked) != 0 || res.Approval == nil || res.Approval.By != "policy" {
				t.Fatalf("the same call after a restart asked (%d) or was not the policy's: %+v (offer %+v, saved %+v)", len(a.asked), res.Approval, offer, p.Rules[0])
			}
			for i, o := range c.others {
				if res := run(o.tool, o.args); !res.Rejected || len(a.asked) != i+1 {
					t.Errorf("%s %v rode on the saved rule %+v (offer %+v): %+v", o.tool, o.args, p.Rules[0], offer, res.Approval)
				}
			}
		})
	}
}

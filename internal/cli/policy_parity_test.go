package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/policy"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
	"gatehouse/internal/tools/files"
	"gatehouse/internal/workspace"
)

// askGateway records that the gate asked and rejects.
type askGateway struct{ asked atomic.Int32 }

func (g *askGateway) Ask(context.Context, approval.Request) (protocol.Decision, error) {
	g.asked.Add(1)
	return protocol.Decision{Kind: protocol.DecisionReject}, nil
}

// plannedTool is a tool whose calls are planned as given (a bash line as
// the bash tool plans it, without a process registry); it runs nothing.
type plannedTool struct {
	name string
	prep *tools.Prepared
}

func (p plannedTool) Spec() tools.Spec { return tools.Spec{Name: p.name} }
func (p plannedTool) Run(context.Context, json.RawMessage) (tools.Result, error) {
	return tools.OK("ran")
}
func (p plannedTool) Prepare(context.Context, json.RawMessage) (*tools.Prepared, tools.Result, bool) {
	c := *p.prep
	c.Run = func(context.Context, protocol.Decision) (tools.Result, error) { return tools.OK("ran") }
	return &c, tools.Result{}, true
}

const parityPolicy = `
[[rule]]
id = "env"
decision = "deny"
tool = "read_file"
files = [".env", "keys/**"]
reason = "secrets stay out"

[[rule]]
id = "notes"
decision = "ask"
paths = ["private/**"]
access = "read"

[[rule]]
id = "gen"
decision = "deny"
paths = ["gen/**"]
access = "write"

[[rule]]
id = "lock"
decision = "deny"
paths = ["*.lock"]

[[rule]]
id = "docs"
decision = "allow"
tool = "write_file"
files = ["docs/**"]

[[rule]]
id = "patch-env"
decision = "deny"
tool = "apply_patch"
files = ["**/.secret"]

[[rule]]
id = "npm"
decision = "allow"
tool = "bash"
commands = ["npm test", "git status"]

[[rule]]
id = "curl"
decision = "deny"
tool = "bash"
commands = ["curl **"]

[[rule]]
id = "push"
decision = "ask"
tool = "bash"
commands = ["git push **"]

[[rule]]
id = "grep-all"
decision = "allow"
tool = "grep"
`

// TestPolicyCheckAndGateAgree: `policy check` (approval.CheckMode) and the
// gate decide alike on the same (call, policy) pairs, in manual and safe:
// reads and writes, files and commands, symlinked paths (a link to .env is
// .env), path rules with access, ask rules on reads.
func TestPolicyCheckAndGateAgree(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"keys", "private", "gen", "docs", "src"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
	}
	for _, f := range []string{".env", "keys/a.pem", "private/n.md", "gen/x.go", "docs/a.md", "src/a.go", "yarn.lock", "src/.secret"} {
		os.WriteFile(filepath.Join(root, f), []byte("x\n"), 0o644)
	}
	os.Symlink(".env", filepath.Join(root, "envlink"))
	os.Symlink("keys", filepath.Join(root, "keylink"))
	os.Symlink("private/n.md", filepath.Join(root, "notelink"))
	cfg := t.TempDir()
	os.WriteFile(filepath.Join(cfg, "policy.toml"), []byte(parityPolicy), 0o600)
	ws, err := workspace.New(root, workspace.Options{ProtectedDirs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	p := policy.Load(policy.Where{ConfigDir: cfg, Workspace: root})
	if len(p.Errors) > 0 {
		t.Fatal(p.Errors)
	}
	all := p.Rules
	ws.SetDeny(func() workspace.Deny { return policy.DenyOf(all) })

	type pair struct {
		tool, target string
		want         approval.Verdict // in manual mode
	}
	pairs := []pair{
		{"read_file", ".env", approval.VerdictDeny},
		{"read_file", "./keys/../.env", approval.VerdictDeny},
		{"read_file", "envlink", approval.VerdictDeny},
		{"read_file", "keys/a.pem", approval.VerdictDeny},
		{"read_file", "keylink/a.pem", approval.VerdictDeny},
		{"read_file", "src/a.go", approval.VerdictAsk},
		{"read_file", "private/n.md", approval.VerdictAsk},
		{"read_file", "notelink", approval.VerdictAsk},
		{"read_file", "yarn.lock", approval.VerdictDeny},
		{"read_file", "gen/x.go", approval.VerdictAsk},
		{"view_image", ".env", approval.VerdictDeny},
		{"view_image", "envlink", approval.VerdictDeny},
		{"view_image", "src/a.go", approval.VerdictAsk},
		{"list_dir", "keys", approval.VerdictDeny},
		{"list_dir", "keylink", approval.VerdictDeny},
		{"list_dir", "src", approval.VerdictAsk},
		{"list_dir", "private", approval.VerdictAsk},
		{"glob", ".", approval.VerdictAsk},
		{"glob", "keys", approval.VerdictDeny},
		{"grep", ".", approval.VerdictAllow},
		{"grep", ".env", approval.VerdictDeny},
		{"grep", "envlink", approval.VerdictDeny},
		{"grep", "keys", approval.VerdictDeny},
		{"grep", "private/n.md", approval.VerdictAsk},
		{"grep", "src", approval.VerdictAllow},
		{"write_file", "docs/b.md", approval.VerdictAllow},
		{"write_file", "src/b.go", approval.VerdictAsk},
		{"write_file", "gen/y.go", approval.VerdictDeny},
		{"write_file", "yarn.lock", approval.VerdictDeny},
		// A write over a file that exists reads it (its diff shows the old
		// content): the read deny holds; creating a file reads nothing.
		{"write_file", ".env", approval.VerdictDeny},
		{"write_file", "envlink", approval.VerdictDeny},
		{"write_file", "keys/a.pem", approval.VerdictDeny},
		{"write_file", "keys/new.pem", approval.VerdictAsk},
		{"write_file", "private/n.md", approval.VerdictAsk},
		{"apply_patch", ".env", approval.VerdictDeny},
		{"apply_patch", "keylink/a.pem", approval.VerdictDeny},
		{"apply_patch", "src/a.go", approval.VerdictAsk},
		{"write_file", "docs/../gen/z.go", approval.VerdictDeny},
		{"bash", "npm test", approval.VerdictAllow},
		{"bash", "git status", approval.VerdictAllow},
		{"bash", "npm test && git status", approval.VerdictAllow},
		{"bash", "npm test && ls", approval.VerdictAsk},
		{"bash", "curl -s https://x", approval.VerdictDeny},
		{"bash", "npm test; curl x", approval.VerdictDeny},
		{"bash", "git push origin main", approval.VerdictAsk},
		{"bash", "cat .env", approval.VerdictAsk},
		{"bash", "ls", approval.VerdictAsk},
		{"bash", "eval \"$X\"", approval.VerdictAsk},
	}
	for _, mode := range []approval.Mode{approval.Manual, approval.Safe} {
		for _, c := range pairs {
			t.Run(fmt.Sprintf("%s/%s/%s", mode, c.tool, c.target), func(t *testing.T) {
				want := approval.CheckMode(all, ws, c.tool, c.target, mode)
				got := gateVerdict(t, ws, all, mode, c.tool, c.target)
				if got != want.Verdict {
					t.Fatalf("gate %q, policy check %q (%s)", got, want.Verdict, want.Why)
				}
				if mode == approval.Manual && got != c.want {
					t.Fatalf("%q, want %q (%s)", got, c.want, want.Why)
				}
			})
		}
	}
}

// gateVerdict runs one call of tool on target through the plan stage and
// a gate with rules in mode, and says what the gate did: deny (the policy
// refused it), ask (the gateway was asked) or allow (it ran unasked).
func gateVerdict(t *testing.T, ws *workspace.Workspace, rules []approval.StandingRule, mode approval.Mode, tool, target string) approval.Verdict {
	t.Helper()
	var tl tools.Tool
	var args json.RawMessage
	switch tool {
	case "bash":
		prep, a, _ := approval.PlanTarget(ws, "bash", "", target)
		tl, args = plannedTool{name: "bash", prep: prep}, a
	case "read_file":
		tl = files.NewReadFile(ws)
	case "view_image":
		tl = files.NewViewImage(ws, nil)
	case "list_dir":
		tl = files.NewListDir(ws)
	case "glob":
		tl = files.NewGlob(ws)
		args, _ = json.Marshal(map[string]string{"pattern": "*", "path": target})
	case "grep":
		tl = files.NewGrep(ws)
		args, _ = json.Marshal(map[string]string{"pattern": "x", "path": target})
	case "write_file":
		tl = files.NewWriteFile(ws)
		args, _ = json.Marshal(map[string]string{"path": target, "content": "y\n"})
	case "apply_patch":
		tl = files.NewApplyPatch(ws)
		args, _ = json.Marshal(map[string]string{"patch": "*** Begin Patch\n*** Delete File: " + target + "\n*** End Patch"})
	}
	if args == nil {
		args, _ = json.Marshal(map[string]string{"path": target})
	}
	gw := &askGateway{}
	g := approval.New(approval.Config{Mode: func() approval.Mode { return mode }, Gateway: gw, Workspace: ws,
		Standing: func() []approval.StandingRule { return rules }})
	h := tools.Chain(tl, tools.Plan(nil), g.Middleware)
	res, err := h(context.Background(), tools.Call{ID: "c", Name: tool, Args: args})
	switch {
	case err != nil:
		t.Fatal(err)
	case gw.asked.Load() > 0:
		return approval.VerdictAsk
	case res.IsError && strings.Contains(string(res.Output), tools.CodePolicyDenied):
		return approval.VerdictDeny
	}
	return approval.VerdictAllow // it ran (view_image of a text file then fails as the tool's own error)
}

// TestPolicyCheckReadDenyRoutes: the rule answers deny for
// read_file on .env, and through a symlink, names every route's verdict
// and what stays open; a command line names what the sandbox hides.
func TestPolicyCheckReadDenyRoutes(t *testing.T) {
	cfg, data, ws := t.TempDir(), t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(cfg, "policy.toml"), []byte(`
[[rule]]
decision = "deny"
tool = "read_file"
files = [".env", "keys/**"]
reason = "secrets stay out"
`), 0o600)
	os.WriteFile(filepath.Join(ws, ".env"), []byte("X=1\n"), 0o600)
	os.Symlink(".env", filepath.Join(ws, "link"))
	for _, p := range []string{".env", "link", "./keys/../.env"} {
		code, out, errs := runPolicy(t, cfg, data, "check", "--workspace", ws, "--tool", "read_file", "--", p)
		if code != ExitPolicyDeny || !strings.Contains(out, "secrets stay out") || !strings.Contains(out, "grep, glob, list_dir: deny") ||
			!strings.Contains(out, "apply_patch, write_file: deny") ||
			!strings.Contains(out, "commands: deny") || !strings.Contains(out, "git show HEAD:") {
			t.Errorf("%s: %d %q %q", p, code, out, errs)
		}
	}
	code, out, _ := runPolicy(t, cfg, data, "check", "--workspace", ws, "--tool", "read_file", "--", "src/a.go")
	if code != ExitPolicyAsk || !strings.Contains(out, "commands: no rule") {
		t.Errorf("src/a.go: %d %q", code, out)
	}
	code, out, _ = runPolicy(t, cfg, data, "check", "--workspace", ws, "--", "cat .env")
	if code != ExitPolicyAsk || !strings.Contains(out, "sandbox: .env: the sandbox hides it") {
		t.Errorf("cat .env: %d %q", code, out)
	}
}

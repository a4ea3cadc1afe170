package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runPolicy(t *testing.T, cfg, data string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Policy(args, cfg, data, &out, &errb)
	return code, out.String(), errb.String()
}

// TestPolicyCheckExitCodes: `policy check` exits 0 allow, 3 ask (or no
// rule), 4 deny, 1 error, 2 bad usage; `add` saves what the dialog
// offers, `list` shows it, `remove` takes it away.
func TestPolicyCheckExitCodes(t *testing.T) {
	cfg, data, ws := t.TempDir(), t.TempDir(), t.TempDir()
	check := func(line string) (int, string) {
		code, out, _ := runPolicy(t, cfg, data, "check", "--workspace", ws, "--", line)
		return code, out
	}
	if code, out := check("npm test"); code != ExitPolicyAsk || !strings.Contains(out, "no rule") {
		t.Fatalf("no rule: %d %q", code, out)
	}
	if code, out, errs := runPolicy(t, cfg, data, "add", "allow", "--workspace", ws, "--", "npm test"); code != 0 {
		t.Fatalf("add: %d %q %q", code, out, errs)
	}
	if code, out := check("npm test"); code != ExitOK || !strings.Contains(out, "allowed by rule p-") || !strings.Contains(out, "policy.d") {
		t.Fatalf("allow: %d %q", code, out)
	}
	if code, _ := check("npm test && curl x"); code != ExitPolicyAsk {
		t.Fatalf("chained: %d", code)
	}
	if code, _, _ := runPolicy(t, cfg, data, "add", "deny", "--everywhere", "--reason", "no network", "--workspace", ws, "--", "curl **"); code != 0 {
		t.Fatal("add deny")
	}
	if code, out := check("npm test && curl -s x"); code != ExitPolicyDeny || !strings.Contains(out, "no network") {
		t.Fatalf("deny: %d %q", code, out)
	}
	var list struct {
		Builtin []json.RawMessage
		Rules   []struct {
			ID, Decision, Layer, File string
		}
	}
	code, out, _ := runPolicy(t, cfg, data, "list", "--workspace", ws, "--json")
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list.Rules) != 2 {
		t.Fatalf("list: %d %q", code, out)
	}
	// No built-in layer: what safe runs unasked is what a plan says, not a list.
	if list.Builtin != nil || strings.Contains(out, "builtin:") {
		t.Fatalf("a built-in layer is listed: %q", out)
	}
	allow := list.Rules[1]
	if allow.Decision != "allow" || allow.Layer != "workspace" {
		t.Fatalf("listed %+v", list.Rules)
	}
	if code, _, _ := runPolicy(t, cfg, data, "remove", "--workspace", ws, allow.ID); code != 0 {
		t.Fatal("remove")
	}
	if code, _ := check("npm test"); code != ExitPolicyAsk {
		t.Fatalf("after remove: %d", code)
	}
	// A broken file: an error, and check says where.
	os.WriteFile(filepath.Join(cfg, "policy.toml"), []byte("# a comment\n[[rule]]\ndecision = = \"deny\"\n"), 0o600)
	code, _, errs := runPolicy(t, cfg, data, "check", "--workspace", ws, "--", "curl x")
	if code != ExitPolicyAsk || !strings.Contains(errs, "policy.toml:3") {
		t.Fatalf("broken file: %d %q", code, errs)
	}
	if code, _, _ := runPolicy(t, cfg, data, "add", "allow", "--everywhere", "--workspace", ws, "--", "ls"); code != ExitError {
		t.Fatalf("add into a broken file: %d", code)
	}
	for _, bad := range [][]string{{}, {"check", "--workspace", ws}, {"add", "always", "--", "ls"}, {"frob"}, {"remove"}} {
		if code, _, _ := runPolicy(t, cfg, data, bad...); code != ExitUsage {
			t.Errorf("%q: %d, want 2", bad, code)
		}
	}
	if code, _, _ := runPolicy(t, cfg, data, "add", "allow", "--workspace", ws, "--", "rm -rf x"); code != ExitError {
		t.Error("a line the dialog offers no rule for was saved")
	}
}

// TestPolicyCheckOtherTools: --tool checks a file tool on a path and an
// MCP tool as a whole against the same files, with the same exit codes.
func TestPolicyCheckOtherTools(t *testing.T) {
	cfg, data, ws := t.TempDir(), t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(cfg, "policy.toml"), []byte(`
[[rule]]
id = "docs"
decision = "allow"
tool = "apply_patch"
files = ["docs/**"]

[[rule]]
id = "secrets"
decision = "deny"
tool = "apply_patch"
files = ["**/.env"]
reason = "secrets are edited by hand"

[[rule]]
id = "mcp-ask"
decision = "ask"
tool = "mcp__github__*"
`), 0o600)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--tool", "apply_patch", "--", "docs/a/b.md"}, ExitOK, "allowed by rule docs"},
		{[]string{"--tool", "apply_patch", "--", "src/main.go"}, ExitPolicyAsk, "no standing rule"},
		{[]string{"--tool", "apply_patch", "--", "docs/.env"}, ExitPolicyDeny, "secrets are edited by hand"},
		{[]string{"--tool", "mcp__github__create_issue"}, ExitPolicyAsk, "ask by rule mcp-ask"},
		{[]string{"--tool", "read_file", "--", "docs/a.md"}, ExitPolicyAsk, "no standing rule"},
		{[]string{"--", "ls"}, ExitPolicyAsk, "no standing rule"},
	} {
		code, out, errs := runPolicy(t, cfg, data, append([]string{"check", "--workspace", ws}, c.args...)...)
		if code != c.code || !strings.Contains(out, c.want) {
			t.Errorf("%v: %d %q %q, want %d %q", c.args, code, out, errs, c.code, c.want)
		}
	}
	if code, _, _ := runPolicy(t, cfg, data, "check", "--workspace", ws); code != ExitUsage {
		t.Errorf("bash without a line: %d", code)
	}
}

// TestPolicyCheckWebFetchURL: `policy check --tool web_fetch -- URL`
// decides by the URL's domain, exactly as the rule names it; `list` shows
// the domain.
func TestPolicyCheckWebFetchURL(t *testing.T) {
	cfg, data, ws := t.TempDir(), t.TempDir(), t.TempDir()
	rules := "[[rule]]\nid = \"ex\"\ndecision = \"allow\"\ntool = \"web_fetch\"\ndomain = \"example.com\"\n"
	if err := os.WriteFile(filepath.Join(cfg, "policy.toml"), []byte(rules), 0o600); err != nil {
		t.Fatal(err)
	}
	for url, want := range map[string]int{"https://example.com/docs": ExitOK, "https://docs.example.com/": ExitPolicyAsk,
		"https://example.com.evil.net/": ExitPolicyAsk} {
		code, out, errs := runPolicy(t, cfg, data, "check", "--tool", "web_fetch", "--workspace", ws, "--", url)
		if code != want || errs != "" {
			t.Errorf("%s: %d %q %q, want %d", url, code, out, errs, want)
		}
	}
	if _, out, _ := runPolicy(t, cfg, data, "list", "--workspace", ws); !strings.Contains(out, "web_fetch any URL on example.com (this exact domain") {
		t.Fatalf("list: %q", out)
	}
}

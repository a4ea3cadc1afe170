package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const claudeStyle = `{
  "mcpServers": {
    "github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"], "env": {"GITHUB_TOKEN": "ghp_secret"}},
    "docs": {"url": "https://user:pw@docs.example/mcp?key=abc", "headers": {"Authorization": "Bearer tok"}},
    "off": {"command": "x", "disabled": true}
  }
}`

func TestParseSaveAndMask(t *testing.T) {
	c, err := Parse([]byte(claudeStyle))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Servers) != 3 || !c.Servers["off"].Disabled || !c.Servers["docs"].Remote() {
		t.Fatalf("parsed %+v", c)
	}
	path := filepath.Join(t.TempDir(), "cfg", ConfigFile)
	if err := Save(path, c); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("saved with mode %v (%v), want 0600", fi.Mode().Perm(), err)
	}
	back, err := LoadFile(path)
	if err != nil || back.Servers["github"].Env["GITHUB_TOKEN"] != "ghp_secret" {
		t.Fatalf("round trip: %+v %v", back, err)
	}

	gh, docs := c.Servers["github"].Masked(), c.Servers["docs"].Masked()
	shown, _ := json.Marshal([]ServerConfig{gh, docs})
	for _, secret := range []string{"ghp_secret", "Bearer tok", "pw", "abc"} {
		if strings.Contains(string(shown), secret) {
			t.Errorf("masked config shows %q: %s", secret, shown)
		}
	}
	if gh.Env["GITHUB_TOKEN"] != Mask || docs.CommandLine() == "" {
		t.Errorf("masked: %+v", gh)
	}
	// A form that saves masked values unchanged keeps the secrets.
	edited := gh
	edited.Args = append(edited.Args, "--verbose")
	un := Unmask(edited, c.Servers["github"])
	if un.Env["GITHUB_TOKEN"] != "ghp_secret" || un.Args[2] != "--verbose" {
		t.Errorf("unmask: %+v", un)
	}
	if d := Unmask(docs, c.Servers["docs"]); d.URL != c.Servers["docs"].URL || d.Headers["Authorization"] != "Bearer tok" {
		t.Errorf("unmask url: %+v", d)
	}
	if got := c.Servers["github"].CommandLine(); got != "npx -y @modelcontextprotocol/server-github" {
		t.Errorf("command line %q", got)
	}
}

func TestParseRefusesWhatIsNotAServerList(t *testing.T) {
	for in, want := range map[string]string{
		`{"servers": {}}`:           `no "mcpServers"`,
		`{"mcpServers": {"a": {}}}`: `server "a" needs either a command`,
		`{"mcpServers": {"a": {"command": "x", "url": "http://h"}}}`:     "both a command and a url",
		`{"mcpServers": {"a": {"url": "ftp://h"}}}`:                      "not an http(s) address",
		`{"mcpServers": {"a": {"command": "x", "headers": {"A": "b"}}}}`: "headers apply to a url",
		`not json`: "not JSON",
	} {
		_, err := Parse([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%s) = %v, want %q", in, err, want)
		}
	}
	if c, err := LoadFile(filepath.Join(t.TempDir(), "missing.json")); err != nil || len(c.Servers) != 0 {
		t.Errorf("a missing file: %+v %v", c, err)
	}
}

func TestNamesAreValidAndUnique(t *testing.T) {
	valid := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	sl := slugs([]string{"a__b", "a_b", "my server", "@scope/pkg", strings.Repeat("long", 20), "ünï"})
	seen := map[string]bool{}
	for n, s := range sl {
		if strings.Contains(s, "__") || seen[s] || !valid.MatchString(s) {
			t.Errorf("slug of %q = %q (seen %v)", n, s, seen[s])
		}
		seen[s] = true
	}
	names := toolNames(sl["a__b"], []string{"get.file", "get/file", "get file", strings.Repeat("x", 100), strings.Repeat("x", 99) + "y", ""})
	seenT := map[string]bool{}
	for _, n := range names {
		if !valid.MatchString(n) || seenT[n] || !strings.HasPrefix(n, "mcp__a_b__") {
			t.Errorf("tool name %q", n)
		}
		seenT[n] = true
	}
	if s := string(normalizeSchema(map[string]any{"type": "string"})); s != `{"type":"object","properties":{}}` {
		t.Errorf("non-object schema became %s", s)
	}
	if s := string(normalizeSchema(map[string]any{"$schema": "x", "properties": map[string]any{"a": map[string]any{"type": "string"}}})); s != `{"properties":{"a":{"type":"string"}},"type":"object"}` {
		t.Errorf("schema without type became %s", s)
	}
}

func TestFoldArgsShortensLongStrings(t *testing.T) {
	long := strings.Repeat("é", 500)
	out := FoldArgs(json.RawMessage(`{"a":"`+long+`","n":12345678901234567890,"l":["short"]}`), 300)
	if !strings.Contains(out, "… (200 more characters)") || strings.Contains(out, long) {
		t.Errorf("folded: %s", out)
	}
	if !strings.Contains(out, "12345678901234567890") || !strings.Contains(out, "\n  \"l\": [\n") {
		t.Errorf("numbers or layout lost: %s", out)
	}
}

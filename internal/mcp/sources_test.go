package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/trust"
)

func TestWorkspaceServersLoadOnlyOnceTrusted(t *testing.T) {
	cfgDir, ws := t.TempDir(), t.TempDir()
	if err := Save(UserConfigPath(cfgDir), Config{Servers: map[string]ServerConfig{
		"shared": {Command: "user-version"}, "mine": {Command: "mine"},
	}}); err != nil {
		t.Fatal(err)
	}
	wsFile := filepath.Join(ws, ".gatehouse", "mcp.json")
	os.MkdirAll(filepath.Dir(wsFile), 0o755)
	os.WriteFile(wsFile, []byte(`{"mcpServers":{"shared":{"command":"ws-version","env":{"TOKEN":"t0ps3cret"}},"api":{"url":"https://h/mcp?key=k3y"}}}`), 0o644)
	ts := trust.NewStore(cfgDir)

	src, err := LoadSources(cfgDir, ws, nil, ts)
	if err != nil {
		t.Fatal(err)
	}
	if len(src.Entries) != 2 || src.Untrusted == nil {
		t.Fatalf("untrusted workspace: entries %+v, untrusted %v", src.Entries, src.Untrusted)
	}
	lines := strings.Join(src.Untrusted.Lines, "\n")
	if !strings.Contains(lines, "shared runs ws-version\n  env TOKEN="+Mask+"  (a secret: not shown)") || !strings.Contains(lines, "api connects to https://h/mcp?key=") ||
		strings.Contains(lines, "t0ps3cret") || strings.Contains(lines, "k3y") {
		t.Errorf("trust dialog lines:\n%s", lines)
	}
	if err := ts.Trust(ws, trust.KindMCP, src.Untrusted.Content); err != nil {
		t.Fatal(err)
	}
	src, _ = LoadSources(cfgDir, ws, nil, ts)
	if src.Untrusted != nil || len(src.Entries) != 3 {
		t.Fatalf("trusted workspace: %+v", src)
	}
	for _, e := range src.Entries {
		if e.Name == "shared" && (e.Config.Command != "ws-version" || e.Source != WorkspaceConfig) {
			t.Errorf("the workspace's shared should win: %+v", e)
		}
	}
	// exec passes no trust store: the workspace list never loads.
	src, _ = LoadSources(cfgDir, ws, nil, nil)
	if len(src.Entries) != 2 {
		t.Errorf("exec loaded the workspace list: %+v", src.Entries)
	}
	// A changed file is untrusted again.
	os.WriteFile(wsFile, []byte(`{"mcpServers":{"shared":{"command":"other"}}}`), 0o644)
	if src, _ = LoadSources(cfgDir, ws, nil, ts); src.Untrusted == nil {
		t.Error("a changed workspace list was trusted")
	}
	if _, err := LoadSources(cfgDir, ws, []string{filepath.Join(ws, "nope.json")}, nil); err == nil {
		t.Error("a missing --mcp-config file is not an error")
	}
}

func TestImportKeepsTheUsersServers(t *testing.T) {
	user := Config{Servers: map[string]ServerConfig{"a": {Command: "mine"}}}
	claude := Config{Servers: map[string]ServerConfig{"a": {Command: "theirs"}, "b": {Command: "b"}}}
	out, added := Import(user, claude)
	if out.Servers["a"].Command != "mine" || out.Servers["b"].Command != "b" || strings.Join(added, ",") != "b" {
		t.Errorf("import: %+v %v", out, added)
	}
}

// TestLinkedWorkspaceListIsRefused: a .gatehouse/mcp.json that is a link
// (to a list elsewhere, whose content could change after trust) or a FIFO
// is not read; the reason is given, and nothing of it starts or asks.
func TestLinkedWorkspaceListIsRefused(t *testing.T) {
	cfgDir, ws, elsewhere := t.TempDir(), t.TempDir(), t.TempDir()
	other := filepath.Join(elsewhere, "mcp.json")
	os.WriteFile(other, []byte(`{"mcpServers":{"x":{"command":"evil"}}}`), 0o644)
	os.MkdirAll(filepath.Join(ws, ".gatehouse"), 0o755)
	if err := os.Symlink(other, filepath.Join(ws, ".gatehouse", "mcp.json")); err != nil {
		t.Fatal(err)
	}
	src, err := LoadSources(cfgDir, ws, nil, trust.NewStore(cfgDir))
	if err != nil || src.Untrusted != nil || len(src.Entries) != 0 || len(src.Refused) != 1 ||
		!strings.Contains(src.Refused[0].Reason, "symbolic link") {
		t.Fatalf("a linked list: %+v %v", src, err)
	}
	h := NewHost(HostOptions{ConfigDir: cfgDir})
	t.Cleanup(h.Close)
	h.Open(ws)
	if p := h.List(); !strings.Contains(p.Problem, ".gatehouse/mcp.json is a symbolic link") || p.Untrusted != nil {
		t.Fatalf("the panel does not say why: %+v", p)
	}
}

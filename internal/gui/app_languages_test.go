package gui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/settings"
)

func serverNamed(v LanguageServersView, name string) *LanguageServerView {
	for i := range v.Servers {
		if v.Servers[i].Name == name {
			return &v.Servers[i]
		}
	}
	return nil
}

// TestLanguageServersSettings: Settings → Language servers lists the
// built-in servers with their state; an entry that cannot run (no file
// patterns, a bad pattern, a command with its arguments in it) is refused
// with why and nothing is saved; a valid one is saved to the settings file
// and listed ("not found" when its command is not installed); turning a
// built-in one off says off; removing an entry restores the built-in one.
// Unreadable settings are never overwritten.
func TestLanguageServersSettings(t *testing.T) {
	app, _ := newTestApp(t, llmtest.Script{})
	file := filepath.Join(app.store.Dir(), settings.SettingsFile)
	v, err := app.LanguageServers()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"gopls", "typescript", "pyright"} {
		if s := serverNamed(v, name); s == nil || !s.Builtin || s.Configured || s.State == "" {
			t.Fatalf("%s: %+v", name, s)
		}
	}
	before, _ := os.ReadFile(file)
	for _, bad := range []struct {
		entry settings.LanguageServer
		why   string
	}{
		{settings.LanguageServer{Command: "rust-analyzer"}, "file patterns are needed"},
		{settings.LanguageServer{Command: "rust-analyzer", FilePatterns: []string{"[*.rs"}}, "file pattern"},
		{settings.LanguageServer{Command: "rust-analyzer --stdio", FilePatterns: []string{"*.rs"}}, "put its arguments under args"},
		{settings.LanguageServer{FilePatterns: []string{"*.rs"}}, "a command is needed"},
	} {
		if _, err := app.SaveLanguageServer(LanguageServerEntry{"rust", bad.entry}); err == nil || !strings.Contains(err.Error(), bad.why) {
			t.Errorf("%+v: err %v, want %q", bad.entry, err, bad.why)
		}
	}
	if _, err := app.SaveLanguageServer(LanguageServerEntry{"rust analyzer", settings.LanguageServer{Command: "ra", FilePatterns: []string{"*.rs"}}}); err == nil {
		t.Error("a name with a space was saved")
	}
	if after, _ := os.ReadFile(file); string(after) != string(before) {
		t.Fatal("a refused entry changed the settings file")
	}

	v, err = app.SaveLanguageServer(LanguageServerEntry{"rust", settings.LanguageServer{Command: "no-such-rust-analyzer", Args: []string{"--stdio"},
		FilePatterns: []string{"*.rs"}, RootMarkers: []string{"Cargo.toml"}}})
	if err != nil {
		t.Fatal(err)
	}
	if s := serverNamed(v, "rust"); s == nil || s.Builtin || !s.Configured || s.State != "not found" || s.Config.Args[0] != "--stdio" {
		t.Fatalf("rust: %+v", s)
	}
	if b, _ := os.ReadFile(file); !strings.Contains(string(b), `"no-such-rust-analyzer"`) || !strings.Contains(string(b), `"Cargo.toml"`) {
		t.Fatalf("settings file: %s", b)
	}
	v, err = app.SaveLanguageServer(LanguageServerEntry{"pyright", settings.LanguageServer{Disabled: true}})
	if err != nil {
		t.Fatal(err)
	}
	if s := serverNamed(v, "pyright"); s == nil || s.State != "off" || !s.Configured || s.Config.Command != "pyright-langserver" {
		t.Fatalf("pyright off: %+v", s)
	}
	if v, err = app.RemoveLanguageServer("pyright"); err != nil {
		t.Fatal(err)
	}
	if s := serverNamed(v, "pyright"); s == nil || s.State == "off" || s.Configured {
		t.Fatalf("pyright back: %+v", s)
	}

	// Settings that cannot be read stay as they are.
	if err := os.WriteFile(file, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := app.SaveLanguageServer(LanguageServerEntry{"rust", settings.LanguageServer{Command: "ra", FilePatterns: []string{"*.rs"}}}); err == nil {
		t.Fatal("saved over unreadable settings")
	}
	if b, _ := os.ReadFile(file); string(b) != "{not json" {
		t.Fatalf("unreadable settings replaced: %s", b)
	}
}

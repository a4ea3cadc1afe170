package mcp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
	"gatehouse/internal/trust"
)

// updates collects the host's published lists.
type updates struct {
	mu   sync.Mutex
	last protocol.McpUpdatedPayload
	ch   chan struct{}
}

func (u *updates) on(p protocol.McpUpdatedPayload) {
	u.mu.Lock()
	u.last = p
	u.mu.Unlock()
	select {
	case u.ch <- struct{}{}:
	default:
	}
}

// wait returns once the published list satisfies ok.
func (u *updates) wait(t *testing.T, ok func(protocol.McpUpdatedPayload) bool) protocol.McpUpdatedPayload {
	t.Helper()
	timeout := time.After(time.Minute)
	for {
		u.mu.Lock()
		p := u.last
		u.mu.Unlock()
		if ok(p) {
			return p
		}
		select {
		case <-u.ch:
		case <-timeout:
			t.Fatalf("the list never got there: %+v", p)
		}
	}
}

func listed(p protocol.McpUpdatedPayload, name string) (protocol.McpServer, bool) {
	for _, s := range p.Servers {
		if s.Name == name {
			return s, true
		}
	}
	return protocol.McpServer{}, false
}

func TestHostEditsTheUsersListAndAppliesIt(t *testing.T) {
	cfgDir, ws := t.TempDir(), t.TempDir()
	u := &updates{ch: make(chan struct{}, 100)}
	h := NewHost(HostOptions{ConfigDir: cfgDir, OnUpdate: u.on})
	t.Cleanup(h.Close)
	if err := h.Open(ws); err != nil {
		t.Fatal(err)
	}
	h.Start()
	cfg := ServerConfig{Command: fakeBin, Env: map[string]string{"FAKE_MODE": "normal", "TOKEN": "s3cret"}}
	if err := h.PutServer("", "fake", cfg); err != nil {
		t.Fatal(err)
	}
	u.wait(t, func(p protocol.McpUpdatedPayload) bool { s, _ := listed(p, "fake"); return s.State == StateReady })
	fi, err := os.Stat(UserConfigPath(cfgDir))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("user list mode %v %v", fi, err)
	}

	// The form shows masked secrets; saving them unchanged keeps them.
	shown, editable, err := h.ServerConfig("fake")
	if err != nil || !editable || shown.Env["TOKEN"] != Mask {
		t.Fatalf("form: %+v %v %v", shown, editable, err)
	}
	shown.TimeoutSeconds = 30
	if err := h.PutServer("fake", "fake", shown); err != nil {
		t.Fatal(err)
	}
	saved, _ := LoadFile(UserConfigPath(cfgDir))
	if saved.Servers["fake"].Env["TOKEN"] != "s3cret" || saved.Servers["fake"].TimeoutSeconds != 30 {
		t.Fatalf("saved %+v", saved.Servers["fake"])
	}
	raw, _ := h.RawConfig()
	if strings.Contains(raw, "s3cret") || !strings.Contains(raw, `"TOKEN": "`+Mask+`"`) {
		t.Errorf("raw view shows secrets: %s", raw)
	}

	// Disable and the tool switch are saved.
	if err := h.SetToolEnabled("fake", "hang", false); err != nil {
		t.Fatal(err)
	}
	if err := h.SetDisabled("fake", true); err != nil {
		t.Fatal(err)
	}
	saved, _ = LoadFile(UserConfigPath(cfgDir))
	if !saved.Servers["fake"].Disabled || strings.Join(saved.Servers["fake"].DisabledTools, ",") != "hang" {
		t.Errorf("saved %+v", saved.Servers["fake"])
	}

	// Bad raw JSON changes nothing; good raw JSON renames the server.
	if err := h.SaveRawConfig(`{"mcpServers": {"x": {}}}`); err == nil {
		t.Fatal("bad raw JSON was accepted")
	}
	if again, _ := LoadFile(UserConfigPath(cfgDir)); again.Servers["fake"].Env["TOKEN"] != "s3cret" {
		t.Fatal("bad raw JSON changed the file")
	}
	raw = strings.Replace(raw, `"fake"`, `"renamed"`, 1)
	if err := h.SaveRawConfig(raw); err != nil {
		t.Fatal(err)
	}
	p := u.wait(t, func(p protocol.McpUpdatedPayload) bool { s, _ := listed(p, "renamed"); return s.State == StateReady })
	if _, still := listed(p, "fake"); still {
		t.Error("the old name is still listed")
	}
	if err := h.RemoveServer("renamed"); err != nil {
		t.Fatal(err)
	}
	if len(h.List().Servers) != 0 {
		t.Errorf("after remove: %+v", h.List())
	}
}

func TestHostStartsAWorkspaceListOnlyAfterTrust(t *testing.T) {
	cfgDir, ws := t.TempDir(), t.TempDir()
	file := filepath.Join(ws, ".gatehouse", "mcp.json")
	os.MkdirAll(filepath.Dir(file), 0o755)
	os.WriteFile(file, []byte(`{"mcpServers":{"wsfake":{"command":"`+fakeBin+`"}}}`), 0o644)
	u := &updates{ch: make(chan struct{}, 100)}
	h := NewHost(HostOptions{ConfigDir: cfgDir, OnUpdate: u.on, Confine: testConfine(t)})
	t.Cleanup(h.Close)
	h.Open(ws)
	h.Start()
	p := h.List()
	if len(p.Servers) != 0 || p.Untrusted == nil || !strings.Contains(p.Untrusted.Lines[0], "wsfake runs "+fakeBin) {
		t.Fatalf("untrusted list: %+v", p)
	}
	// The file changes after it was shown: trusting refuses and shows it anew.
	os.WriteFile(file, []byte(`{"mcpServers":{"wsfake":{"command":"`+fakeBin+`","args":["--changed"]}}}`), 0o644)
	if err := h.TrustWorkspace(); err == nil || !strings.Contains(err.Error(), "changed since it was shown") {
		t.Fatalf("trust of a changed file: %v", err)
	}
	if !strings.Contains(h.List().Untrusted.Lines[0], "--changed") {
		t.Fatalf("the new content is not shown: %+v", h.List().Untrusted)
	}
	if err := h.TrustWorkspace(); err != nil {
		t.Fatal(err)
	}
	u.wait(t, func(p protocol.McpUpdatedPayload) bool {
		s, _ := listed(p, "wsfake")
		return s.State == StateReady && s.Source == WorkspaceConfig && p.Untrusted == nil
	})
	// Reopening the folder starts it without asking again.
	h.Open(ws)
	if h.List().Untrusted != nil || len(h.List().Servers) != 1 {
		t.Errorf("reopened: %+v", h.List())
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	h.Start()
	h.manager().Wait(ctx)

	// Revoked in Settings: the server stops, leaves the list, and the file
	// waits for trust again.
	if err := trust.NewStore(cfgDir).RevokeFolder(ws); err != nil {
		t.Fatal(err)
	}
	if err := h.Recheck(); err != nil {
		t.Fatal(err)
	}
	if p := h.List(); len(p.Servers) != 0 || p.Untrusted == nil || len(h.Providers()) != 0 {
		t.Errorf("after revoke: %+v", p)
	}
}

func TestHostSaysWhenTheUsersListIsBroken(t *testing.T) {
	cfgDir := t.TempDir()
	os.WriteFile(UserConfigPath(cfgDir), []byte(`{"mcpServers": {"a": {"command": "x",}}}`), 0o600)
	h := NewHost(HostOptions{ConfigDir: cfgDir})
	t.Cleanup(h.Close)
	if err := h.Open(t.TempDir()); err == nil {
		t.Fatal("a broken list opened without an error")
	}
	if p := h.List(); !strings.Contains(p.Problem, "mcp.json: not JSON") {
		t.Errorf("problem %q", p.Problem)
	}
	if b, _ := os.ReadFile(UserConfigPath(cfgDir)); !strings.Contains(string(b), `"command": "x",`) {
		t.Error("the broken file was changed")
	}
}

func surfaceNames(s *tools.Surface) string {
	var names []string
	for _, t := range s.List() {
		names = append(names, t.Spec().Name)
	}
	return strings.Join(names, ",")
}

// The attached session surface gains a server's provider when it is added
// and loses it when it is removed; its tools show while the server is ready.
func TestHostKeepsTheAttachedSurfaceInStep(t *testing.T) {
	cfgDir := t.TempDir()
	u := &updates{ch: make(chan struct{}, 100)}
	h := NewHost(HostOptions{ConfigDir: cfgDir, OnUpdate: u.on})
	t.Cleanup(h.Close)
	ws := t.TempDir()
	h.Open(ws)
	h.Start()
	surface, err := tools.NewSurface()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Attach(surface, ws); err != nil {
		t.Fatal(err)
	}
	if err := h.PutServer("", "fake", ServerConfig{Command: fakeBin}); err != nil {
		t.Fatal(err)
	}
	u.wait(t, func(p protocol.McpUpdatedPayload) bool { s, _ := listed(p, "fake"); return s.State == StateReady })
	if got := surfaceNames(surface); !strings.Contains(got, "mcp__fake__echo") || strings.Join(surface.Providers(), ",") != "mcp server fake" {
		t.Fatalf("surface tools %s, providers %v", got, surface.Providers())
	}
	if err := h.SetDisabled("fake", true); err != nil {
		t.Fatal(err)
	}
	if got := surfaceNames(surface); got != "" {
		t.Errorf("a disabled server's tools are offered: %s", got)
	}
	if err := h.RemoveServer("fake"); err != nil {
		t.Fatal(err)
	}
	if len(surface.Providers()) != 0 {
		t.Errorf("a removed server's provider stays: %v", surface.Providers())
	}
}

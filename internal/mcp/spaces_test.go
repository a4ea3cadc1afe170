package mcp

import (
	"slices"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
	"gatehouse/internal/trust"
)

// trustedWorkspace is a folder whose .gatehouse/mcp.json runs the fake
// server as name, trusted in cfgDir's store.
func trustedWorkspace(t *testing.T, cfgDir, name string) string {
	t.Helper()
	ws := t.TempDir()
	plant(t, ws, map[string]string{WorkspaceConfig: `{"mcpServers":{"` + name + `":{"command":"` + fakeBin + `"}}}`})
	c, err := trust.Read(ws, trust.KindMCP)
	if err != nil {
		t.Fatal(err)
	}
	if err := trust.NewStore(cfgDir).TrustShown(ws, trust.KindMCP, c.Hash); err != nil {
		t.Fatal(err)
	}
	return ws
}

// waitTools waits until surface offers exactly the tools named want among
// those ending in __echo.
func waitTools(t *testing.T, what string, surface *tools.Surface, want ...string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		var got []string
		for _, tl := range surface.List() {
			if n := tl.Spec().Name; strings.HasSuffix(n, "__echo") {
				got = append(got, n)
			}
		}
		slices.Sort(got)
		if slices.Equal(got, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s offers %v, want %v", what, got, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Two tabs in two workspaces: each session is offered the user's servers
// and its own workspace's, never the other workspace's (so their
// questions and pictures cannot reach it); the panel shows the shown
// tab's workspace; a workspace's servers stop with its last session.
func TestAWorkspacesServersBelongToItsTabs(t *testing.T) {
	cfgDir := t.TempDir()
	if err := Save(UserConfigPath(cfgDir), Config{Servers: map[string]ServerConfig{"mine": {Command: fakeBin}}}); err != nil {
		t.Fatal(err)
	}
	confine := testConfine(t)
	wsA, wsB := trustedWorkspace(t, cfgDir, "wa"), trustedWorkspace(t, cfgDir, "wb")
	u := &updates{ch: make(chan struct{}, 100)}
	h := NewHost(HostOptions{ConfigDir: cfgDir, OnUpdate: u.on, Confine: confine})
	t.Cleanup(h.Close)
	if err := h.Open(wsA); err != nil {
		t.Fatal(err)
	}
	h.Start()
	tabA, _ := tools.NewSurface()
	tabB, _ := tools.NewSurface()
	if _, err := h.Attach(tabA, wsA); err != nil {
		t.Fatal(err)
	}
	detachB, err := h.Attach(tabB, wsB) // a tab opened on another folder
	if err != nil {
		t.Fatal(err)
	}
	waitTools(t, "workspace A's tab", tabA, "mcp__mine__echo", "mcp__wa__echo")
	waitTools(t, "workspace B's tab", tabB, "mcp__mine__echo", "mcp__wb__echo")

	// The panel shows the shown tab's workspace.
	names := func(p protocol.McpUpdatedPayload) string {
		var n []string
		for _, s := range p.Servers {
			n = append(n, s.Name)
		}
		return strings.Join(n, ",")
	}
	if got := names(h.List()); got != "mine,wa" {
		t.Errorf("the panel of A lists %s", got)
	}
	h.Show(wsB)
	if got := names(h.List()); got != "mine,wb" {
		t.Errorf("the panel of B lists %s", got)
	}
	// A server added to the user's list reaches both tabs.
	if err := h.PutServer("", "more", ServerConfig{Command: fakeBin}); err != nil {
		t.Fatal(err)
	}
	waitTools(t, "workspace A's tab", tabA, "mcp__mine__echo", "mcp__more__echo", "mcp__wa__echo")
	waitTools(t, "workspace B's tab", tabB, "mcp__mine__echo", "mcp__more__echo", "mcp__wb__echo")

	// B's last tab closes while A is shown: B's servers stop.
	h.Show(wsA)
	detachB()
	if got := h.statuses(wsB); got != nil {
		t.Errorf("workspace B's servers outlive its last tab: %+v", got)
	}
	if st, err := h.manager().Status("wa"); err != nil || st.State != StateReady {
		t.Errorf("workspace A's server: %+v %v", st, err)
	}
}

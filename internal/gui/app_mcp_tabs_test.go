package gui

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/mcp"
	"gatehouse/internal/runtime"
	"gatehouse/internal/supervisor/suptest"
	"gatehouse/internal/trust"
)

// fakeMCPServer builds internal/mcp's fake server for a test.
func fakeMCPServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "fakeserver")
	if out, err := exec.Command("go", "build", "-o", bin, "../mcp/testdata/fakeserver").CombinedOutput(); err != nil {
		t.Fatalf("building the fake MCP server: %v\n%s", err, out)
	}
	return bin
}

// mcpTools are the MCP tools session s offers the model.
func mcpTools(s *runtime.Session) []string {
	var out []string
	for _, sp := range s.Specs() {
		if strings.HasPrefix(sp.Name, "mcp__") && strings.HasSuffix(sp.Name, "__echo") {
			out = append(out, sp.Name)
		}
	}
	slices.Sort(out)
	return out
}

// Two tabs in two workspaces, each with its own trusted server list: each
// tab's session is offered its own workspace's server and never the
// other's, and the Servers panel lists the shown tab's.
func TestAWorkspacesServersReachOnlyItsTabs(t *testing.T) {
	suptest.Confining(t)
	bin := fakeMCPServer(t)
	cfg, data := filepath.Join(t.TempDir(), "config"), filepath.Join(t.TempDir(), "data")
	prog, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	folder := func(server string) string {
		// The server runs confined, where only the workspace (and the
		// system) is readable: its program is the workspace's own.
		ws := t.TempDir()
		os.MkdirAll(filepath.Join(ws, ".gatehouse"), 0o755)
		own := filepath.Join(ws, "fakeserver")
		if err := os.WriteFile(own, prog, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(ws, mcp.WorkspaceConfig), []byte(`{"mcpServers":{"`+server+`":{"command":"`+own+`"}}}`), 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := trust.Read(ws, trust.KindMCP)
		if err != nil {
			t.Fatal(err)
		}
		if err := trust.NewStore(cfg).TrustShown(ws, trust.KindMCP, c.Hash); err != nil {
			t.Fatal(err)
		}
		return ws
	}
	wsA, wsB := folder("wa"), folder("wb")
	app, _ := newAppIn(t, llmtest.Start(t, llmtest.Script{}), cfg, data)
	app.Ready()
	if err := app.openTab(wsA); err != nil {
		t.Fatal(err)
	}
	a := app.currentSession()
	if err := app.openTab(wsB); err != nil {
		t.Fatal(err)
	}
	b := app.currentSession()
	defer func() { t.Logf("A offers %v, B offers %v; panel %+v", mcpTools(a), mcpTools(b), app.McpList()) }()
	waitFor(t, "tab A's session is not offered its workspace's server alone", func() bool {
		return slices.Equal(mcpTools(a), []string{"mcp__wa__echo"})
	})
	waitFor(t, "tab B's session is not offered its workspace's server alone", func() bool {
		return slices.Equal(mcpTools(b), []string{"mcp__wb__echo"})
	})
	listed := func() string {
		var n []string
		for _, s := range app.McpList().Servers {
			n = append(n, s.Name+":"+string(s.State))
		}
		return strings.Join(n, ",")
	}
	if got := listed(); got != "wb:ready" {
		t.Errorf("the panel of tab B lists %s", got)
	}
	if _, err := app.SwitchTab(a.ID()); err != nil {
		t.Fatal(err)
	}
	if got := listed(); got != "wa:ready" {
		t.Errorf("the panel of tab A lists %s", got)
	}
	if got := mcpTools(a); !slices.Equal(got, []string{"mcp__wa__echo"}) {
		t.Errorf("after the switch tab A offers %v", got)
	}
}

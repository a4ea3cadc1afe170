package mcp

import "testing"

// A workspace's own servers offer their resources and prompts to the tabs
// of that workspace only; the user's servers to every tab.
func TestWorkspaceServersServeTheirWorkspaceOnly(t *testing.T) {
	h := NewHost(HostOptions{ConfigDir: t.TempDir()})
	h.workspace = "/work/a"
	for _, c := range []struct {
		source, tab string
		want        bool
	}{
		{WorkspaceConfig, "/work/a", true},
		{WorkspaceConfig, "/work/a/", true},
		{WorkspaceConfig, "/work/b", false},
		{"/home/u/.config/gatehouse/mcp.json", "/work/b", true},
	} {
		if got := h.serves(Status{Source: c.source}, c.tab); got != c.want {
			t.Errorf("a server of %s for a tab on %s: %v, want %v", c.source, c.tab, got, c.want)
		}
	}
}

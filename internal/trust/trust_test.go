package trust

import (
	"os"
	"path/filepath"
	"testing"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestTrustIsPerFolderKindAndContent(t *testing.T) {
	cfg, ws, other := t.TempDir(), t.TempDir(), t.TempDir()
	s := NewStore(cfg)
	c, err := Read(ws, KindMCP)
	if err != nil || !c.Empty() {
		t.Fatalf("a folder without .gatehouse: %+v %v", c, err)
	}
	write(t, filepath.Join(ws, ".gatehouse", "mcp.json"), `{"mcpServers":{}}`)
	write(t, filepath.Join(ws, ".gatehouse", "agents", "review.md"), "---\nname: review\n---\n")
	c, _ = Read(ws, KindMCP)
	if c.Empty() || len(c.Files) != 1 || c.Files[0] != ".gatehouse/mcp.json" {
		t.Fatalf("content %+v", c)
	}
	if ok, _ := s.Trusted(ws, KindMCP, c); ok {
		t.Fatal("trusted before the user said so")
	}
	if err := s.Trust(ws, KindMCP, c); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(cfg, File)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("store file mode %v %v", fi.Mode().Perm(), err)
	}
	if ok, _ := s.Trusted(ws, KindMCP, c); !ok {
		t.Fatal("not trusted after Trust")
	}
	// Another store on the same file (another window) sees it too.
	if ok, _ := NewStore(cfg).Trusted(ws, KindMCP, c); !ok {
		t.Error("a second store does not see the decision")
	}
	// Trusting the MCP list says nothing about agents, or another folder.
	a, _ := Read(ws, KindAgents)
	if ok, _ := s.Trusted(ws, KindAgents, a); ok || len(a.Files) != 1 {
		t.Errorf("agents trusted by the MCP decision (%+v)", a)
	}
	write(t, filepath.Join(other, ".gatehouse", "mcp.json"), `{"mcpServers":{}}`)
	o, _ := Read(other, KindMCP)
	if ok, _ := s.Trusted(other, KindMCP, o); ok {
		t.Error("another folder with the same content is trusted")
	}
	// A changed file asks again.
	write(t, filepath.Join(ws, ".gatehouse", "mcp.json"), `{"mcpServers":{"x":{"command":"evil"}}}`)
	c2, _ := Read(ws, KindMCP)
	if ok, _ := s.Trusted(ws, KindMCP, c2); ok || c2.Hash == c.Hash {
		t.Error("changed content is still trusted")
	}
	// A new agent file changes the agents' hash.
	write(t, filepath.Join(ws, ".gatehouse", "agents", "two.md"), "x")
	if a2, _ := Read(ws, KindAgents); a2.Hash == a.Hash {
		t.Error("a new agent file did not change the hash")
	}
	// A symlink to the folder is the same folder.
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(ws, link); err != nil {
		t.Fatal(err)
	}
	if err := s.Trust(link, KindMCP, c2); err != nil {
		t.Fatal(err)
	}
	if ok, _ := s.Trusted(ws, KindMCP, c2); !ok {
		t.Error("trust through a symlink did not reach the folder")
	}
	if err := s.Revoke(ws, KindMCP); err != nil {
		t.Fatal(err)
	}
	if ok, _ := s.Trusted(ws, KindMCP, c2); ok {
		t.Error("still trusted after Revoke")
	}
}

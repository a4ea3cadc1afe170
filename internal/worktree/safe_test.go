package worktree

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gatehouse/internal/gitcmd"
	"gatehouse/internal/trust"
)

// planted is a repository whose git settings name a program at every
// place git would start one; each program touches a marker file.
type planted struct {
	*repo
	marks string
	ts    *trust.Store
}

var hookNames = []string{"post-checkout", "post-index-change", "reference-transaction", "pre-commit", "prepare-commit-msg", "commit-msg"}

// plantAll plants the programs; with include, core.fsmonitor comes from a
// file in the working tree that .git/config includes.
func plantAll(t *testing.T, include bool) *planted {
	t.Helper()
	g := newRepo(t, map[string]string{
		"a.txt": "a\n", "m.txt": "1\n2\n3\n4\n5\n6\n", "x.p": "p\n",
		".gitattributes": "*.txt filter=evil diff=evil merge=evil\n*.p filter=proc\n",
	})
	p := &planted{repo: g, marks: t.TempDir(), ts: trust.NewStore(filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "gatehouse"))}
	g.r.Trusted = p.ts.GitTrust(g.r.Top)
	mark := func(name string) string { return "touch " + filepath.Join(p.marks, name) }
	script := func(path, body string) {
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, h := range hookNames {
		script(filepath.Join(g.dir, ".git", "hooks", h), mark("hook-"+h))
	}
	gpg := filepath.Join(p.marks, "..", filepath.Base(p.marks)+"-gpg")
	script(gpg, mark("gpg")+"\ncat >/dev/null\nprintf '\\n[GNUPG:] SIG_CREATED D 1 8 00 1 X\\n' >&2\nprintf -- '-----BEGIN PGP SIGNATURE-----\\n\\nx\\n-----END PGP SIGNATURE-----\\n'")
	cfg := [][2]string{
		{"filter.evil.clean", mark("clean") + "; cat"},
		{"filter.evil.smudge", mark("smudge") + "; cat"},
		{"filter.proc.process", mark("process") + "; false"},
		{"diff.evil.textconv", mark("textconv") + "; cat"},
		{"diff.evil.command", mark("extdiff")},
		{"diff.external", mark("external")},
		{"merge.evil.driver", mark("merge") + "; true"},
		{"commit.gpgsign", "true"},
		{"gpg.program", gpg},
		{"credential.helper", "!" + mark("credential")},
	}
	fsmonitor := mark("fsmonitor") + "; false"
	if include {
		g.write(g.dir, "evil.inc", "[core]\n\tfsmonitor = \""+fsmonitor+"\"\n")
		cfg = append(cfg, [2]string{"include.path", "../evil.inc"})
	} else {
		cfg = append(cfg, [2]string{"core.fsmonitor", fsmonitor})
	}
	for _, kv := range cfg {
		p.quiet(g.dir, "config", kv[0], kv[1])
	}
	return p
}

// quiet runs the test's own git in safe mode: setting up runs nothing
// planted.
func (p *planted) quiet(dir string, args ...string) {
	p.t.Helper()
	if out, err := (gitcmd.Git{}).RunSafe(ctx, dir, nil, args...); err != nil {
		p.t.Fatalf("git %v: %v %s", args, err, out)
	}
}

func (p *planted) ran() []string {
	p.t.Helper()
	es, _ := os.ReadDir(p.marks)
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func (p *planted) trustNow() {
	p.t.Helper()
	c, err := trust.Read(p.r.Top, trust.KindGit)
	if err != nil || len(c.Refused) > 0 {
		p.t.Fatalf("read: %v %v", err, c.Refused)
	}
	if err := p.ts.Trust(p.r.Top, trust.KindGit, c); err != nil {
		p.t.Fatal(err)
	}
}

// In a repository whose git settings are not trusted, making, listing,
// merging, keeping and discarding worktrees (and exec --worktree, and the
// terminal command) run none of the programs the settings name; a merge
// that would skip hooks and signing is refused before anything changed.
func TestUntrustedRepositoryRunsNoPlantedProgram(t *testing.T) {
	for _, include := range []bool{false, true} {
		t.Run(map[bool]string{false: "direct", true: "fsmonitor-through-include"}[include], func(t *testing.T) {
			p := plantAll(t, include)
			r := p.r
			w, err := r.Create(ctx, "one", "", nil)
			if err != nil {
				t.Fatal(err)
			}
			p.write(w.Path, "a.txt", "changed\n")
			p.write(w.Path, "x.p", "changed\n")
			before := treeHash(t, p.dir)
			_, err = r.Merge(ctx, "one", "Change a")
			var nt *gitcmd.NeedsTrust
			if !errors.As(err, &nt) || !slices.Contains(nt.Skipped, "hook pre-commit") || !slices.Contains(nt.Skipped, "commit.gpgsign") {
				t.Fatalf("untrusted merge: err = %v, want NeedsTrust naming the hook and signing", err)
			}
			if treeHash(t, p.dir) != before {
				t.Fatal("a refused merge changed the main worktree")
			}
			if _, err := r.List(ctx); err != nil {
				t.Fatal(err)
			}
			if un, err := r.Losses(ctx, "one"); err != nil || un == nil {
				t.Fatalf("losses: %v %v", un, err)
			}
			if err := r.Keep(ctx, "one", true); err != nil {
				t.Fatal(err)
			}
			if _, err := ExecArgs(ctx, []string{"--workspace", p.dir, "--worktree", "job", "--prompt", "x"}, &bytes.Buffer{}); err != nil {
				t.Fatal(err)
			}
			job, err := r.Find(ctx, "job")
			if err != nil {
				t.Fatal(err)
			}
			p.write(job.Path, "b.txt", "b\n")
			code, _, errs := run("merge", "--workspace", p.dir, "--commit", "b", "job")
			if code != 1 || !strings.Contains(errs, "not trusted") || !strings.Contains(errs, "gatehouse worktree trust") {
				t.Fatalf("the terminal merge should say which trust is missing and how to give it: %d %q", code, errs)
			}
			if err := r.Discard(ctx, "job", true); err != nil {
				t.Fatal(err)
			}
			if got := p.ran(); len(got) != 0 {
				t.Fatalf("an untrusted repository ran %v", got)
			}
		})
	}
}

// Once trusted, the same operations run what the settings name: the plant
// is real.
func TestTrustedRepositoryRunsItsPrograms(t *testing.T) {
	p := plantAll(t, true)
	p.quiet(p.dir, "config", "--unset", "filter.proc.process") // a process filter that exits breaks git itself
	code, out, errs := run("trust", "--workspace", p.dir)
	i := strings.Index(out, "--hash ")
	if code != 0 || i < 0 || !strings.Contains(out, "evil.inc") || !strings.Contains(out, "warning: the included file evil.inc is in the working tree") {
		t.Fatalf("trust shows: %d %q %q", code, out, errs)
	}
	if code, _, errs := run("trust", "--workspace", p.dir, "--hash", strings.TrimSpace(out[i+len("--hash "):])); code != 0 {
		t.Fatalf("trust --hash: %s", errs)
	}
	r := p.r
	w, err := r.Create(ctx, "one", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	p.write(w.Path, "m.txt", "1\n2\n3\n4\n5\nsix\n")
	p.write(p.dir, "m.txt", "one\n2\n3\n4\n5\n6\n")
	p.quiet(p.dir, "commit", "-q", "-am", "main side")
	if _, err := r.Merge(ctx, "one", "Change m"); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(p.ran(), " ")
	for _, want := range append([]string{"smudge", "clean", "fsmonitor", "merge", "gpg"}, hookNames...) {
		if !strings.Contains(got, want) {
			t.Errorf("trusted: %s did not run (ran: %s)", want, got)
		}
	}
}

// A change to an included file, or creating an include target that did
// not exist, takes trust back before the next git the app runs.
func TestIncludedFileChangeTakesTrustBack(t *testing.T) {
	p := plantAll(t, true)
	p.quiet(p.dir, "config", "--unset", "filter.proc.process")
	missing := filepath.Join(p.dir, "later.inc")
	p.quiet(p.dir, "config", "includeIf.onbranch:main.path", missing)
	p.trustNow()
	if !p.r.Trusted() {
		t.Fatal("not trusted after trusting")
	}
	for _, step := range []struct {
		name   string
		change func()
		undo   func()
	}{
		{"the included file changes", func() { p.write(p.dir, "evil.inc", "[core]\n\tfsmonitor = false\n") },
			func() { os.Remove(filepath.Join(p.dir, "evil.inc")) }},
		{"the missing include target is created", func() { p.write(p.dir, "later.inc", "[core]\n") },
			func() { os.Remove(missing) }},
	} {
		p.trustNow()
		step.change()
		if p.r.Trusted() {
			t.Fatalf("%s: still trusted", step.name)
		}
		os.RemoveAll(p.marks)
		os.Mkdir(p.marks, 0o755)
		w, err := p.r.Create(ctx, "after-"+strings.Fields(step.name)[1], "", nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.r.Discard(ctx, w.Name, true); err != nil {
			t.Fatal(err)
		}
		if got := p.ran(); len(got) != 0 {
			t.Fatalf("%s: the next git ran %v", step.name, got)
		}
		step.undo()
	}
}

package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestExpandGlobsMatchesAsPolicyRulesDo(t *testing.T) {
	ws := t.TempDir()
	for _, f := range []string{".env", "a/.env", "a/b/.env", "keys/deploy.pem", "keys/x/y.pem", "top.pem", "src/main.go", ".git/.env", "node/.envrc"} {
		p := filepath.Join(ws, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, nil, 0o644)
	}
	rel := func(ps []string) string {
		var out []string
		for _, p := range ps {
			r, _ := filepath.Rel(ws, p)
			out = append(out, r)
		}
		slices.Sort(out)
		return strings.Join(out, " ")
	}
	for _, c := range []struct {
		globs []string
		want  string
	}{
		{[]string{".env"}, ".env"},
		{[]string{"./.env"}, ".env"},
		{[]string{"**/.env"}, ".env a/.env a/b/.env"},
		{[]string{"keys/**"}, "keys"},
		{[]string{"keys/**", "keys/deploy.pem"}, "keys"},
		{[]string{"*.pem"}, "top.pem"},
		{[]string{"**/*.pem"}, "keys/deploy.pem keys/x/y.pem top.pem"},
		{[]string{"a/*/.env"}, "a/b/.env"},
		{[]string{"missing", "missing/**"}, ""},
		{[]string{"**"}, ""}, // never the workspace itself
	} {
		got, partial := ExpandGlobs(ws, c.globs)
		if rel(got) != c.want || len(partial) > 0 {
			t.Errorf("ExpandGlobs(%q) = %q (partial %q), want %q", c.globs, rel(got), partial, c.want)
		}
	}
}

// With Landlock alone a policy deny inside the workspace cannot be hidden:
// Build says so (Unhidden) instead of putting it in the read grants; with
// namespaces it joins DenyRead, and a new match changes the holder's key.
func TestBuildTakesThePolicysReadDenies(t *testing.T) {
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, ".env"), []byte("x"), 0o600)
	real, _ := filepath.EvalSymlinks(filepath.Join(ws, ".env"))
	spec := Spec{Workspace: ws, DenyRead: []string{}, DenyGlobs: []string{".env", "keys/**"}, Layers: Layers{ABI: 1, Bwrap: "/usr/bin/bwrap", Nsenter: "/usr/bin/nsenter"}}
	p := Build(spec)
	if !slices.Contains(p.DenyRead, real) || len(p.Unhidden) > 0 {
		t.Fatalf("namespaces: DenyRead %q, Unhidden %q", p.DenyRead, p.Unhidden)
	}
	key := p.HolderKey()
	os.MkdirAll(filepath.Join(ws, "keys"), 0o755)
	if Build(spec).HolderKey() == key {
		t.Fatal("a denied folder made since did not change the holder's key")
	}
	spec.Layers = Layers{ABI: 1}
	p = Build(spec)
	if slices.Contains(p.DenyRead, real) || !slices.Contains(p.Unhidden, real) {
		t.Fatalf("Landlock alone: DenyRead %q, Unhidden %q", p.DenyRead, p.Unhidden)
	}
	if st := LineOf(p); !strings.Contains(st, CannotHide) {
		t.Fatalf("Landlock alone: the Sandbox line hides the gap: %s", st)
	}
}

// From a linked worktree, the main checkout's (and the other worktrees')
// denied files are hidden too: they are readable folders like any other.
func TestBuildHidesThePolicysDeniesInTheOtherCheckouts(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root, _ := filepath.EvalSymlinks(t.TempDir())
	main, wt := filepath.Join(root, "main"), filepath.Join(root, "wt")
	os.MkdirAll(main, 0o755)
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.name=a", "-c", "user.email=a@b.c", "commit", "-q", "--allow-empty", "-m", "one"}, {"worktree", "add", "-q", wt}} {
		if out, err := exec.Command("git", append([]string{"-C", main}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	os.WriteFile(filepath.Join(main, ".env"), []byte("x"), 0o600)
	p := Build(Spec{Workspace: wt, DenyRead: []string{}, DenyGlobs: []string{".env"}, Layers: Layers{ABI: 1, Bwrap: "/usr/bin/bwrap", Nsenter: "/usr/bin/nsenter"}})
	if !slices.Contains(p.DenyRead, filepath.Join(main, ".env")) {
		t.Fatalf("the main checkout's .env is not hidden from the worktree's commands: %q", p.DenyRead)
	}
}

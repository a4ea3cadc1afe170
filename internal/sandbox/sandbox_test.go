package sandbox

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestBuildListsWorkspaceTempScratchAndGatehouseCachesOnce(t *testing.T) {
	env := []string{"TMPDIR=/t", "GOMODCACHE=/gm", "GOCACHE=/home/u/.cache/go-build", "HOME=/ignored"}
	p := Build(Spec{Workspace: "/w/", Scratch: "/s", Home: "/home/u", Env: env, NoNetwork: true, DataDir: "/d"})
	for _, want := range []string{"/w", "/t", "/s", "/d/cache/go/mod", "/d/cache/npm"} {
		if !slices.Contains(p.Writable, want) {
			t.Errorf("writable %v lacks %s", p.Writable, want)
		}
	}
	if slices.Contains(p.Writable, "/home/u") || slices.Contains(p.Writable, "/tmp") || slices.Contains(p.Writable, "/gm") {
		t.Errorf("writable %v holds the home folder or /tmp though TMPDIR is set", p.Writable)
	}
	seen := map[string]bool{}
	for _, w := range p.Writable {
		if seen[w] {
			t.Errorf("%s listed twice", w)
		}
		seen[w] = true
	}
	// The flags carry the policy to the helper unchanged.
	var got Policy
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	got.Flags(fs)
	if err := fs.Parse(p.Args()); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Writable, p.Writable) || !got.NoNetwork {
		t.Fatalf("round trip: %+v, want %+v", got, p)
	}
	if err := fs.Parse([]string{"-write", "relative"}); err == nil {
		t.Fatal("a relative writable folder was accepted")
	}
}

func TestRiskyWorkspace(t *testing.T) {
	home := filepath.Join(t.TempDir(), "u")
	for dir, risky := range map[string]bool{"/": true, home: true, home + "/": true, filepath.Join(home, "proj"): false, "/srv": false} {
		if got := RiskyWorkspace(dir, home) != ""; got != risky {
			t.Errorf("RiskyWorkspace(%q) = %v, want %v", dir, got, risky)
		}
	}
}

// Mounts go parents first: a denied folder inside the workspace (a folder
// mounted back under the private /tmp) is mounted after it, and a folder
// mounted back inside the denied one after that.
func TestBwrapMountsParentsFirst(t *testing.T) {
	ws := t.TempDir()
	data := filepath.Join(ws, "data")
	scratch := filepath.Join(data, "scratch", "s")
	os.MkdirAll(filepath.Join(scratch, "tmp"), 0o700)
	p := Build(Spec{Workspace: ws, Scratch: scratch, Env: []string{"HOME=/nonexistent"}, DataDir: data,
		Layers: Layers{ABI: 7, Bwrap: "/usr/bin/bwrap"}})
	args := p.BwrapArgs(ws, []string{"/bin/true"})
	at := func(op, path string) int {
		n := 1 // words after op to its target: a bind names source then target
		if op == "--bind" {
			n = 2
		}
		for i := 0; i+n < len(args); i++ {
			if args[i] == op && args[i+n] == path {
				return i
			}
		}
		t.Fatalf("%s %s missing in %v", op, path, args)
		return -1
	}
	if !(at("--bind", ws) < at("--tmpfs", data) && at("--tmpfs", data) < at("--bind", scratch) && at("--bind", scratch) < at("--remount-ro", data)) {
		t.Fatalf("mount order: %v", args)
	}
}

// Landlock alone: the grants are kept between commands while no folder on
// the way to a denied path changed; an entry added to one is granted at
// the next command, and a denied path made again stays out.
func TestReadGrantsFollowNewEntries(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "home", ".ssh")
	os.MkdirAll(secret, 0o700)
	os.WriteFile(filepath.Join(dir, "home", "a"), nil, 0o644)
	deny := []string{secret}
	first := ReadGrants(deny)
	if !slices.Contains(first, filepath.Join(dir, "home", "a")) || slices.Contains(first, secret) {
		t.Fatalf("grants: %v", first)
	}
	os.WriteFile(filepath.Join(dir, "home", "b"), nil, 0o644)
	os.RemoveAll(secret)
	os.MkdirAll(secret, 0o700)
	again := ReadGrants(deny)
	if !slices.Contains(again, filepath.Join(dir, "home", "b")) || slices.Contains(again, secret) {
		t.Fatalf("grants after a new entry and a denied folder made again: %v", again)
	}
}

// A new repository's config stays only when it sets nothing that runs.
func TestPlainGitConfig(t *testing.T) {
	plain := "[core]\n\trepositoryformatversion = 0\n\tbare = false\n[remote \"origin\"]\n\turl = https://example.com/x.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[user]\n\tname = A\n"
	if !plainGitConfig([]byte(plain)) {
		t.Fatal("git init's config with a remote is not plain")
	}
	for _, evil := range []string{
		"[core]\n\tfsmonitor = sh -c evil\n",
		"[core]\n\thooksPath = /tmp/x\n",
		"[include]\n\tpath = /tmp/x\n",
		"[alias]\n\tst = !sh -c evil\n",
		"[core]\n\tbare = false \\\n\nfsmonitor = evil\n",
		"[remote.origin]\n\turl = x\n",
		"[core] fsmonitor = evil\n",
		"bare = false\n",
	} {
		if plainGitConfig([]byte(evil)) {
			t.Errorf("plain: %q", evil)
		}
	}
}

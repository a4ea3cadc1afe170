//go:build linux

package sandbox_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Confined commands join the namespaces a holder made ahead: two commands
// share one mount namespace, which is not the app's, and still cannot
// write a read-only mount from their working folder.
func TestCommandsJoinTheHoldersNamespaces(t *testing.T) {
	b := newBoxWith(t, boxOpts{on: true})
	if hostLayers().Nsenter == "" {
		t.Skip("nsenter is not installed")
	}
	os.MkdirAll(filepath.Join(b.ws, ".gatehouse"), 0o755)
	os.WriteFile(filepath.Join(b.ws, ".gatehouse/policy.json"), []byte("{}"), 0o644)
	mine, _ := os.Readlink("/proc/self/ns/mnt")
	first := strings.TrimSpace(b.mustRun(t, "readlink /proc/self/ns/mnt"))
	second := strings.TrimSpace(b.mustRun(t, "readlink /proc/self/ns/mnt"))
	if first == mine || first == "" {
		t.Fatalf("the command ran in the app's mount namespace %q", first)
	}
	if first != second {
		t.Fatalf("each command got a mount namespace of its own (%s, %s): no holder was joined", first, second)
	}
	// At once (the helper joins the holder for this command) and after a
	// pause (a spare joined it ahead and waits), each in the holder's tree.
	for _, pause := range []time.Duration{0, 200 * time.Millisecond} {
		b.mustRun(t, "true")
		time.Sleep(pause)
		if code, out := b.run(t, "echo evil > .gatehouse/policy.json; cd .gatehouse && echo evil > policy.json"); code == 0 {
			t.Fatalf("after %v: a read-only file was written from the working folder: %s", pause, out)
		}
		time.Sleep(pause)
		if out := b.mustRun(t, "readlink /proc/self/ns/mnt; kill -0 $PPID 2>&1 || echo refused"); !strings.Contains(out, first) || !strings.Contains(out, "refused") {
			t.Fatalf("after %v: not in the holder's namespace, or its helper can be signalled: %s", pause, out)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(b.ws, ".gatehouse/policy.json")); string(got) != "{}" {
		t.Fatalf(".gatehouse/policy.json changed: %q", got)
	}
}

// A holder's mounts follow the files they were made on: a .git/config
// that git replaced (a new file renamed over it) and a denied folder made
// again after a command ran stay read-only and hidden for the next one.
func TestReplacedPathsStayGuardedAcrossCommands(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	b := newBoxWith(t, boxOpts{on: true})
	git := exec.Command("git", "init", "-q")
	git.Dir, git.Env = b.ws, b.env
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	ssh := filepath.Join(b.home, ".ssh")
	os.MkdirAll(ssh, 0o700)
	b.mustRun(t, "true")
	config := filepath.Join(b.ws, ".git/config")
	git = exec.Command("git", "config", "user.name", "Outside")
	git.Dir, git.Env = b.ws, b.env
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git config: %v %s", err, out)
	}
	os.RemoveAll(ssh)
	os.MkdirAll(ssh, 0o700)
	os.WriteFile(filepath.Join(ssh, "id_rsa"), []byte("PRIVATE KEY"), 0o600)
	before, _ := os.ReadFile(config)
	if code, out := b.run(t, "echo '[core] fsmonitor = evil' >> .git/config"); code == 0 {
		t.Errorf("the replaced .git/config was writable: %s", out)
	}
	if got, _ := os.ReadFile(config); string(got) != string(before) {
		t.Errorf(".git/config changed:\n%s", got)
	}
	if code, out := b.run(t, "cat ~/.ssh/id_rsa"); code == 0 || strings.Contains(out, "PRIVATE") {
		t.Errorf("~/.ssh made again was readable: %s", out)
	}
	if out := b.mustRun(t, "git config user.name"); !strings.Contains(out, "Outside") {
		t.Errorf("the command sees a stale .git/config: %q", out)
	}
}

// Where the holder cannot make its namespaces, each command gets a
// bubblewrap of its own, still confined, and the holder is not tried again
// for the same policy.
func TestCommandsRunConfinedWhenTheHolderCannotStart(t *testing.T) {
	l := hostLayers()
	if !l.Namespaces() || l.Nsenter == "" {
		t.Skip("no namespaces or no nsenter here")
	}
	dir := t.TempDir()
	tries := filepath.Join(dir, "holder-tries")
	// A bubblewrap that fails for a holder (no PID namespace asked).
	fake := filepath.Join(dir, "bwrap")
	script := "#!/bin/sh\ncase \" $* \" in *\" --unshare-pid \"*) exec " + l.Bwrap + " \"$@\";; esac\necho x >> " + tries + "\nexit 1\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755)
	b := newBoxWith(t, boxOpts{on: true, bwrap: fake})
	outside := filepath.Join(b.home, "outside")
	for range 2 {
		if code, out := b.run(t, "echo in > inside && echo out > "+outside); code == 0 || exists(outside) {
			t.Fatalf("a write outside went through (exit %d): %s", code, out)
		}
		if !exists(filepath.Join(b.ws, "inside")) {
			t.Fatal("the command did not run")
		}
	}
	if got, _ := os.ReadFile(tries); strings.Count(string(got), "x") != 1 {
		t.Fatalf("the holder was tried %d times, want once", strings.Count(string(got), "x"))
	}
}

//go:build linux

package sandbox_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"gatehouse/internal/netproxy"
	"gatehouse/internal/proc"
	"gatehouse/internal/sandbox"
	"gatehouse/internal/supervisor/suptest"
	"gatehouse/internal/syncbuf"
)

func TestMain(m *testing.M) {
	code := m.Run()
	suptest.Cleanup()
	os.Exit(code)
}

// box is a sample project run the way the app runs commands: a registry
// under the supervisor helper, HOME and TMPDIR in folders of their own (so
// neither is inside the other writable folders), Gatehouse's settings and
// data folders in that home.
type box struct {
	ws, home, tmp, data, config, scratch string
	landlockOnly, joins                  bool // joins: commands join a holder's namespaces
	env                                  []string
	reg                                  *proc.Registry
	policy                               func() *sandbox.Policy // a command's now (nil: unconfined)
}

// boxOpts: on confines; noNet turns the network off; landlockOnly leaves
// the namespaces out (as where they are unavailable); bwrapEach starts
// bubblewrap for each command (as where nsenter is missing) instead of
// joining a holder's namespaces; sockets is the allow-list.
type boxOpts struct {
	on, noNet, landlockOnly, bwrapEach bool
	bwrap                              string // another bubblewrap (tests of its failures)
	sockets                            []string
	env                                []string // more variables
	// proxy puts the network in allow-list mode: commands reach allow
	// through it (network_test.go).
	proxy *netproxy.Proxy
	allow []string
	// globs are the standing policy's read denies, read at each command.
	globs func() []string
	// portScan turns the registry's port scan on (the panel's ports, and
	// their forwards out of the session's network).
	portScan time.Duration
	// abi, when set, is the Landlock ABI the policy is built for (a kernel
	// without the TCP rule).
	abi int
}

var (
	layersOnce sync.Once
	layers     sandbox.Layers
)

// hostLayers are this machine's layers, detected once.
func hostLayers() sandbox.Layers {
	layersOnce.Do(func() { layers = sandbox.Detect() })
	return layers
}

func newBox(t *testing.T, on, denyTCP bool) *box {
	return newBoxWith(t, boxOpts{on: on, noNet: denyTCP})
}

func newBoxWith(t *testing.T, o boxOpts) *box {
	t.Helper()
	if o.on && sandbox.ABI() < 1 {
		t.Skip("this kernel has no Landlock")
	}
	l := hostLayers()
	if o.on && !o.landlockOnly && !l.Namespaces() {
		t.Skip("no namespaces here: " + l.NoNamespaces)
	}
	if o.landlockOnly {
		l.Bwrap = ""
	}
	if o.bwrapEach || o.landlockOnly {
		l.Nsenter = ""
	}
	if o.bwrap != "" {
		l.Bwrap = o.bwrap
	}
	if o.abi != 0 {
		l.ABI = o.abi
	}
	root := t.TempDir()
	os.Chmod(root, 0o755)
	b := &box{ws: filepath.Join(root, "ws"), home: filepath.Join(root, "home"), tmp: filepath.Join(root, "tmp"), landlockOnly: o.landlockOnly,
		joins: l.Nsenter != "" && l.Bwrap != ""}
	b.data, b.config = filepath.Join(b.home, ".local/share/gatehouse"), filepath.Join(b.home, ".config/gatehouse")
	b.scratch = filepath.Join(b.data, "scratch", "s1")
	for _, d := range []string{b.ws, b.home, b.tmp, b.config, filepath.Join(b.scratch, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := sandbox.MakeCaches(b.data); err != nil {
		t.Fatal(err)
	}
	b.env = append(os.Environ(), "HOME="+b.home, "TMPDIR="+b.tmp, "GOFLAGS=-buildvcs=false", "GOTOOLCHAIN=local")
	if gc, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil {
		// the user's module cache: Go seeds Gatehouse's own from it
		b.env = append(b.env, "GOMODCACHE="+strings.TrimSpace(string(gc)))
	}
	b.env = append(b.env, o.env...)
	spec := sandbox.Spec{Workspace: b.ws, Scratch: b.scratch, Home: b.home, NoNetwork: o.noNet,
		DataDir: b.data, ConfigDir: b.config, AllowSockets: o.sockets, Layers: l}
	if o.proxy != nil {
		spec.ProxyPort = o.proxy.Port()
		spec.OpenNet = func() sandbox.NetCall {
			return o.proxy.Open(func(d string) bool { return netproxy.Match(o.allow, d) })
		}
		spec.ServeProxy = o.proxy.Serve
	}
	scan := o.portScan
	if scan == 0 {
		scan = -1
	}
	opts := proc.Options{Supervisor: suptest.Binary(t), Shell: "/bin/bash", PortScan: scan, KillGrace: 300 * time.Millisecond,
		Env: func() []string { return b.env }}
	if o.on {
		opts.Sandbox = func(dir string) *sandbox.Policy {
			s := spec
			s.Env = b.env
			if o.globs != nil {
				s.DenyGlobs = o.globs()
			}
			p := sandbox.Build(s)
			return &p
		}
	}
	b.policy = func() *sandbox.Policy {
		if opts.Sandbox == nil {
			return nil
		}
		return opts.Sandbox(b.ws)
	}
	b.reg = proc.NewRegistry(opts)
	t.Cleanup(b.reg.Close)
	return b
}

// layered runs f with every layer (commands joining a holder's
// namespaces, then with a bubblewrap each), then with Landlock (and
// seccomp) alone.
func layered(t *testing.T, o boxOpts, f func(t *testing.T, b *box)) {
	t.Run("all-layers", func(t *testing.T) { f(t, newBoxWith(t, o)) })
	t.Run("bwrap-each", func(t *testing.T) {
		o := o
		o.bwrapEach = true
		f(t, newBoxWith(t, o))
	})
	t.Run("landlock-only", func(t *testing.T) {
		o := o
		o.landlockOnly = true
		f(t, newBoxWith(t, o))
	})
}

// run execs command in the workspace and returns its exit code and output.
func (b *box) run(t *testing.T, command string) (int, string) {
	t.Helper()
	code, out, _ := b.runRes(t, command)
	return code, out
}

// runRes is run with the whole result.
func (b *box) runRes(t *testing.T, command string) (int, string, proc.ExecResult) {
	t.Helper()
	var out syncbuf.Buffer
	res, err := b.reg.Exec(context.Background(), proc.ExecSpec{Command: command, Dir: b.ws, Timeout: 3 * time.Minute, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	return res.ExitCode, out.String(), res
}

func (b *box) mustRun(t *testing.T, command string) string {
	t.Helper()
	code, out := b.run(t, command)
	if code != 0 {
		t.Fatalf("%s: exit %d\n%s", command, code, out)
	}
	return out
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

func TestConfinedWritesOnlyWhereAllowed(t *testing.T) {
	b := newBox(t, true, false)
	b.mustRun(t, `echo a > in-ws && mkdir -p d/e && mv in-ws d/e/ && echo b > "$TMPDIR/in-tmp" && mv "$TMPDIR/in-tmp" . >/dev/null`)
	if !exists(filepath.Join(b.ws, "d/e/in-ws")) || !exists(filepath.Join(b.ws, "in-tmp")) {
		t.Fatal("writes in the workspace and temp, and a move across them, did not happen")
	}
	code, out := b.run(t, `echo x > ~/x`)
	if code == 0 || exists(filepath.Join(b.home, "x")) {
		t.Fatalf("a confined command wrote ~/x (exit %d): %s", code, out)
	}
	if !strings.Contains(out, "Permission denied") {
		t.Fatalf("refusal does not say so: %q", out)
	}
	host, err := os.ReadFile("/etc/hostname")
	if err == nil {
		if got := b.mustRun(t, `cat /etc/hostname`); got != string(host) {
			t.Fatalf("read /etc/hostname: %q, want %q", got, host)
		}
	}
}

func TestUnconfinedWhenOff(t *testing.T) {
	b := newBox(t, false, false)
	b.mustRun(t, `echo x > ~/x`)
	if !exists(filepath.Join(b.home, "x")) {
		t.Fatal("with the sandbox off, ~/x was not written")
	}
}

func TestStartedProcessIsConfined(t *testing.T) {
	b := newBox(t, true, false)
	in, err := b.reg.Start(`echo x > ~/x; echo y > started; echo end`, b.ws)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		i, _ := b.reg.Info(in.ProcessID)
		if i.Status != proc.StatusRunning {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("started process did not end")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if exists(filepath.Join(b.home, "x")) || !exists(filepath.Join(b.ws, "started")) {
		t.Fatal("a started process is not confined like exec")
	}
}

func TestEverydayToolsWorkConfined(t *testing.T) {
	b := newBox(t, true, false)
	t.Run("devnull", func(t *testing.T) { b.mustRun(t, `echo hidden >/dev/null && echo shown 2>/dev/null`) })
	t.Run("git", func(t *testing.T) {
		b.mustRun(t, `git init -q g && cd g && echo hi > f && git add f && git -c user.name=T -c user.email=t@example.com commit -qm first && git log --oneline | grep -q first`)
	})
	t.Run("npm ci", func(t *testing.T) {
		if _, err := exec.LookPath("npm"); err != nil {
			t.Skip("npm is not installed")
		}
		os.MkdirAll(filepath.Join(b.ws, "n"), 0o755)
		os.WriteFile(filepath.Join(b.ws, "n/package.json"), []byte(`{"name":"tiny","version":"1.0.0","private":true}`), 0o644)
		os.WriteFile(filepath.Join(b.ws, "n/package-lock.json"), []byte(`{"name":"tiny","version":"1.0.0","lockfileVersion":3,"requires":true,"packages":{"":{"name":"tiny","version":"1.0.0"}}}`), 0o644)
		b.mustRun(t, `cd n && npm ci --no-audit --no-fund --offline`)
	})
	t.Run("go test", func(t *testing.T) {
		os.MkdirAll(filepath.Join(b.ws, "m"), 0o755)
		os.WriteFile(filepath.Join(b.ws, "m/go.mod"), []byte("module tiny\n\ngo 1.21\n"), 0o644)
		os.WriteFile(filepath.Join(b.ws, "m/tiny_test.go"), []byte("package tiny\n\nimport \"testing\"\n\nfunc TestOne(t *testing.T) {}\n"), 0o644)
		b.mustRun(t, `cd m && go test ./...`)
	})
}

func TestNetworkDeniedRefusesTCPConnect(t *testing.T) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	connect := fmt.Sprintf(`exec 3<>/dev/tcp/127.0.0.1/%d && echo connected`, ln.Addr().(*net.TCPAddr).Port)
	if out := newBox(t, true, false).mustRun(t, connect); !strings.Contains(out, "connected") {
		t.Fatalf("with the network on, connect failed: %q", out)
	}
	code, out := newBox(t, true, true).run(t, connect)
	if code == 0 || strings.Contains(out, "connected") {
		t.Fatalf("with TCP connect denied, the connect went through (exit %d): %q", code, out)
	}
}

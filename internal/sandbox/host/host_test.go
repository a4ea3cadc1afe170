package host

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gatehouse/internal/netproxy"
	"gatehouse/internal/proc"
	"gatehouse/internal/sandbox"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func TestStatusSaysWhyCommandsAreNotConfined(t *testing.T) {
	t.Setenv("GATEHOUSE_SUPERVISOR", filepath.Join(t.TempDir(), "missing"))
	h := New("", quiet())
	if st := h.Status(Config{}); st.Confined || !strings.Contains(st.Reason, "helper") {
		t.Fatalf("missing helper: %+v", st)
	}
	h.Helper, h.ABI = "/x/gatehouse-supervisor", 0
	if st := h.Status(Config{}); st.Confined || !strings.Contains(st.Reason, "Landlock") {
		t.Fatalf("no Landlock: %+v", st)
	}
	h.ABI = 7
	if st := h.Status(Config{}); !st.Confined || st.Mode != sandbox.ModeWorkspaceWrite || st.Reason != "" {
		t.Fatalf("available, default mode: %+v", st)
	}
	if st := h.Status(Config{Mode: sandbox.ModeOff}); st.Confined || !strings.Contains(st.Reason, "off") {
		t.Fatalf("off: %+v", st)
	}
}

func TestOptionsConfineAsTheSettingSaysWhenACommandStarts(t *testing.T) {
	helper := filepath.Join(t.TempDir(), HelperName)
	os.WriteFile(helper, []byte("#!/bin/sh\n"), 0o755)
	t.Setenv("GATEHOUSE_SUPERVISOR", helper)
	data := t.TempDir()
	h := New(data, quiet())
	h.ABI = 7 // the policy is built whatever the kernel: the helper applies it
	mode, network := sandbox.ModeWorkspaceWrite, netproxy.ModeOff
	cfg := func() Config {
		return Config{Mode: mode, DenyTCP: network == netproxy.ModeOff, Network: network, Allow: []string{"*.example.org"}}
	}
	net := h.Network("s1", cfg)
	o := h.Options(proc.Options{Env: func() []string { return []string{"HOME=/home/u", "TMPDIR=/t"} }}, "/w", h.Scratch("s1"), cfg, net)
	if o.Supervisor != helper || o.Ledger == nil {
		t.Fatalf("options: %+v", o)
	}
	p := o.Sandbox("/w/sub")
	if p == nil || !p.NoNetwork || p.Writable[0] != "/w" || p.Writable[1] != "/t" || p.Writable[2] != filepath.Join(data, "scratch", "s1") {
		t.Fatalf("policy: %+v", p)
	}
	// Allow-list mode: the proxy, and an identity per command that the
	// session's policy checks (the list, then a domain allowed for it).
	network = netproxy.ModeAllowList
	p = o.Sandbox("/w")
	proxy, err := h.Proxy()
	if err != nil || p.NoNetwork || p.ProxyPort != proxy.Port() || p.OpenNet == nil {
		t.Fatalf("allow-list policy: %+v (%v)", p, err)
	}
	if h.Network("s1", cfg) != net {
		t.Fatal("a session's network policy is not one")
	}
	call := p.OpenNet()
	defer call.Close()
	if env := strings.Join(call.Env(), " "); !strings.Contains(env, "HTTPS_PROXY=http://") || !strings.Contains(env, "NO_PROXY=localhost") {
		t.Fatalf("proxy variables: %s", env)
	}
	if !net.Allowed("api.example.org") || net.Allowed("example.com") {
		t.Fatal("the session's policy does not follow the list")
	}
	net.Allow("example.com")
	if !net.Allowed("example.com") || h.Network("s2", cfg).Allowed("example.com") {
		t.Fatal("a domain allowed for one session is not allowed for it alone")
	}
	mode = sandbox.ModeOff
	if o.Sandbox("/w") != nil {
		t.Fatal("with the sandbox off a command is still confined")
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if names, _ := filepath.Glob(filepath.Join(data, "running", "*.json")); len(names) != 0 {
		t.Fatalf("a clean exit left %v", names)
	}
}

// Settings and the dialog say which layers are active; with namespaces
// forced off (the test option) they say Landlock holds alone and what that
// misses.
func TestDescribeSaysWhichLayersHold(t *testing.T) {
	if sandbox.ABI() < 1 {
		t.Skip("this kernel has no Landlock")
	}
	helper := filepath.Join(t.TempDir(), HelperName)
	os.WriteFile(helper, []byte("#!/bin/sh\n"), 0o755)
	t.Setenv("GATEHOUSE_SUPERVISOR", helper)
	ws, home := t.TempDir(), t.TempDir()
	env := []string{"HOME=" + home, "TMPDIR=" + t.TempDir()}
	t.Setenv("GATEHOUSE_SANDBOX_LAYERS", sandbox.LandlockOnly)
	st := New(t.TempDir(), quiet()).Describe(Config{DenyTCP: true}, ws, "", env)
	if !st.Confined || !st.LandlockOnly || !strings.Contains(st.Missing, "detected after each command") ||
		strings.Contains(strings.Join(st.Layers, " "), "namespaces") || !strings.Contains(st.Line, "Network: off (TCP, MPTCP, UDP)") ||
		!strings.Contains(st.Line, "~/.ssh") {
		t.Fatalf("Landlock alone: %+v", st)
	}
	t.Setenv("GATEHOUSE_SANDBOX_LAYERS", "")
	h := New(t.TempDir(), quiet())
	if !h.Layers().Namespaces() {
		t.Skip("no namespaces here: " + h.Layers().NoNamespaces)
	}
	st = h.Describe(Config{}, ws, "", env)
	if st.LandlockOnly || !strings.Contains(st.Layers[0], "namespaces") || !strings.Contains(st.Line, "seccomp") {
		t.Fatalf("every layer: %+v", st)
	}
}

// In allow-list mode on a kernel whose Landlock has no TCP rule (before
// Linux 6.7), with Landlock alone, the proxy cannot be the only way out:
// commands get no network at all, and the dialog's line and a refused
// command's note say why. With namespaces and nsenter the session's
// network namespace holds the list instead.
func TestAllowListWithoutLandlockTCPFallsBackToOff(t *testing.T) {
	helper := filepath.Join(t.TempDir(), HelperName)
	os.WriteFile(helper, []byte("#!/bin/sh\n"), 0o755)
	t.Setenv("GATEHOUSE_SUPERVISOR", helper)
	if l := sandbox.Detect(); l.Namespaces() && l.Nsenter != "" {
		h := New(t.TempDir(), quiet())
		h.ABI = sandbox.NetABI - 1
		cfg := func() Config { return Config{Network: netproxy.ModeAllowList} }
		ws := t.TempDir()
		o := h.Options(proc.Options{}, ws, h.Scratch("s1"), cfg, h.Network("s1", cfg))
		if p := o.Sandbox(ws); p == nil || p.NoNetwork || p.ProxyPort == 0 || p.ServeProxy == nil {
			t.Errorf("allow-list in the session's network namespace, without Landlock's TCP rule: %+v", p)
		}
		// A workspace's MCP server is no session's command: no network.
		if _, mp, why := h.Confinement(ws, nil, cfg()); mp == nil || !mp.NoNetwork || mp.ProxyPort != 0 {
			t.Errorf("an MCP server in allow-list mode without Landlock's TCP rule: %+v %s", mp, why)
		}
		h.Close()
	}
	t.Setenv("GATEHOUSE_SANDBOX_LAYERS", sandbox.LandlockOnly)
	h := New(t.TempDir(), quiet())
	defer h.Close()
	h.ABI = sandbox.NetABI - 1
	cfg := func() Config {
		return Config{Network: netproxy.ModeAllowList, Allow: []string{"registry.npmjs.org"}}
	}
	ws := t.TempDir()
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	o := h.Options(proc.Options{Env: func() []string { return env }}, ws, h.Scratch("s1"), cfg, h.Network("s1", cfg))
	p := o.Sandbox(ws)
	if p == nil || !p.NoNetwork || p.ProxyPort != 0 || p.OpenNet != nil {
		t.Fatalf("allow-list without Landlock's TCP rule: %+v", p)
	}
	st := h.Describe(cfg(), ws, "", env)
	if !strings.Contains(st.Line, "Network: off (TCP, MPTCP, UDP): the allow-list needs Landlock's TCP rule") {
		t.Fatalf("the dialog's line does not say why the network is off: %s", st.Line)
	}
	note := sandbox.Explain(p, nil, "curl: (6) Could not resolve host: registry.npmjs.org")
	if !strings.Contains(note, "because the allow-list needs Landlock's TCP rule") {
		t.Fatalf("a refused command's note: %s", note)
	}
	// With the rule, the same settings go through the proxy.
	h2 := New(t.TempDir(), quiet())
	h2.ABI = sandbox.NetABI
	o = h2.Options(proc.Options{Env: func() []string { return env }}, ws, h2.Scratch("s1"), cfg, h2.Network("s1", cfg))
	if p := o.Sandbox(ws); p == nil || p.NoNetwork || p.ProxyPort == 0 {
		t.Fatalf("allow-list with Landlock's TCP rule: %+v", p)
	}
	h2.Close()
}

// The policy's read denies reach every confined program of the workspace:
// its commands (read at each start) and its own MCP servers
// (Confinement); with Landlock alone the description says they are not
// hidden.
func TestPolicyReadDeniesReachCommandsAndServers(t *testing.T) {
	helper := filepath.Join(t.TempDir(), HelperName)
	os.WriteFile(helper, []byte("#!/bin/sh\n"), 0o755)
	t.Setenv("GATEHOUSE_SUPERVISOR", helper)
	ws, _ := filepath.EvalSymlinks(t.TempDir())
	os.WriteFile(filepath.Join(ws, ".env"), []byte("x"), 0o600)
	env := []string{"HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir()}
	h := New(t.TempDir(), quiet())
	h.ABI = 7
	h.layersOnce.Do(func() {}) // layers as set below, not detected
	h.layers = sandbox.Layers{ABI: 7, Bwrap: "/usr/bin/bwrap", Nsenter: "/usr/bin/nsenter"}
	globs := []string{}
	cfg := func() Config { return Config{DenyGlobs: globs} }
	o := h.Options(proc.Options{Env: func() []string { return env }}, ws, "", cfg, nil)
	env0 := filepath.Join(ws, ".env")
	if p := o.Sandbox(ws); slices.Contains(p.DenyRead, env0) {
		t.Fatal("hidden with no deny")
	}
	globs = []string{".env"}
	if p := o.Sandbox(ws); !slices.Contains(p.DenyRead, env0) {
		t.Fatalf("a command after the policy edit: DenyRead %q", p.DenyRead)
	}
	if _, p, why := h.Confinement(ws, env, cfg()); p == nil || !slices.Contains(p.DenyRead, env0) {
		t.Fatalf("a workspace's server: %+v %s", p, why)
	}
	if hidden, why := h.Hides(ws, env, cfg(), env0); !hidden {
		t.Fatalf("Hides(.env) with namespaces: false, %q", why)
	}
	if hidden, why := h.Hides(ws, env, cfg(), filepath.Join(ws, "readme.md")); hidden || why == "" {
		t.Fatalf("Hides(readme.md): %v, %q", hidden, why)
	}
	h.layers = sandbox.Layers{ABI: 7, NoNamespaces: "test"}
	if st := h.Describe(cfg(), ws, "", env); !strings.Contains(st.PolicyReads, sandbox.CannotHide) || !strings.Contains(st.Line, sandbox.CannotHide) {
		t.Fatalf("Landlock alone: %+v", st)
	}
	if hidden, why := h.Hides(ws, env, cfg(), env0); hidden || why != sandbox.CannotHide {
		t.Fatalf("Hides(.env) with Landlock alone: %v, %q", hidden, why)
	}
	if hidden, why := h.Hides(ws, env, Config{Mode: sandbox.ModeOff, DenyGlobs: globs}, env0); hidden || !strings.Contains(why, "off") {
		t.Fatalf("Hides(.env) with the sandbox off: %v, %q", hidden, why)
	}
}

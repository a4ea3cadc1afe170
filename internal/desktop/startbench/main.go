//go:build linux

// Command startbench measures the desktop app's start-up time (exec until the
// page called Ready) and idle memory (PSS summed over the app and its WebKit
// processes), beside a bare Wails app generated with `wails init -t
// vanilla-ts` and built the same way, in the same run under one Xvfb.
//
// The bare app gets one change: its page calls the bound Greet("ready") after
// its first frame, the way Gatehouse's page calls Ready, and Greet logs
// "msg=ready". Both apps are timed from exec to that line.
//
// It runs on Linux only: the apps run under Xvfb, in a process group of
// their own, and their memory is read from /proc.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	gatehouse := flag.String("gatehouse", "build/bin/gatehouse", "the production Gatehouse binary")
	bare := flag.String("bare", "build/bench/bare/build/bin/bare", "the bare Wails app")
	runs := flag.Int("runs", 7, "runs of each app (median reported)")
	settle := flag.Duration("settle", 3*time.Second, "idle time after ready before memory is read")
	verbose := flag.Bool("v", false, "print every run")
	mcpServer := flag.String("mcp-server", "", "a stdio MCP server's command line (space-separated): also time Gatehouse with three of them configured")
	flag.Parse()

	display, stopX, err := startXvfb()
	if err != nil {
		fail(err)
	}
	defer stopX()

	home, err := os.MkdirTemp("", "startbench-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(home)
	ws := filepath.Join(home, "my-project")
	cfg := filepath.Join(home, ".config", "gatehouse")
	for _, d := range []string{ws, cfg} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			fail(err)
		}
	}
	// A configured model, so Gatehouse draws its chat frame, not first-run.
	os.WriteFile(filepath.Join(cfg, "settings.json"), []byte(`{"baseURL":"http://127.0.0.1:9/v1","model":"bench","approvalMode":"safe"}`), 0o644)
	env := append(cleanEnv(), "DISPLAY="+display, "HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
		"XDG_CACHE_HOME="+filepath.Join(home, ".cache"), "WEBKIT_DISABLE_COMPOSITING_MODE=1", "LIBGL_ALWAYS_SOFTWARE=1")

	// Both apps run from copies made the same way. A binary the Go linker
	// has just written sits in the page cache in large folios, and a process
	// started from it maps more of its file (16 MiB more PSS, measured) than
	// one started from a copied file with the same bytes: the freshly built
	// app would lose to the bare one built minutes before for that alone.
	bareBin, ghBin := filepath.Join(home, "bin", "bare"), filepath.Join(home, "bin", "gatehouse")
	for src, dst := range map[string]string{*bare: bareBin, *gatehouse: ghBin} {
		if err := copyFile(src, dst); err != nil {
			fail(err)
		}
	}
	apps := []struct {
		name string
		argv []string
		env  []string
	}{
		{"bare wails", []string{bareBin}, env},
		{"gatehouse", []string{ghBin, "--workspace", ws}, env},
	}
	if *mcpServer != "" {
		// The same app with three MCP servers in the user's list: they start
		// after the first frame, so start-up should not see them.
		mcpHome := filepath.Join(home, ".config-mcp")
		if err := writeMCPConfig(filepath.Join(mcpHome, "gatehouse"), strings.Fields(*mcpServer)); err != nil {
			fail(err)
		}
		mcpEnv := append(append([]string{}, env...), "XDG_CONFIG_HOME="+mcpHome)
		apps = append(apps, struct {
			name string
			argv []string
			env  []string
		}{"gatehouse+mcp", []string{ghBin, "--workspace", ws}, mcpEnv})
	}
	times := map[string][]time.Duration{}
	mems := map[string][]int{}
	// Alternate the apps so a slow period of the machine hits both.
	for i := 0; i < *runs; i++ {
		for _, a := range apps {
			d, pss, err := measure(a.argv, a.env, *settle)
			if err != nil {
				fail(fmt.Errorf("%s: %w", a.name, err))
			}
			times[a.name] = append(times[a.name], d)
			mems[a.name] = append(mems[a.name], pss)
			if *verbose {
				fmt.Printf("  run %d  %-10s %6v  %6.1f MiB\n", i+1, a.name, d.Round(time.Millisecond), float64(pss)/1024)
			}
		}
	}
	bt, gt := median(times["bare wails"]), median(times["gatehouse"])
	bm, gm := medianInt(mems["bare wails"]), medianInt(mems["gatehouse"])
	fmt.Printf("start-up (exec → ready, median of %d):  bare wails %v   gatehouse %v   ratio %.2f× (target ≤ 1.15×)\n",
		*runs, bt.Round(time.Millisecond), gt.Round(time.Millisecond), float64(gt)/float64(bt))
	fmt.Printf("idle memory (PSS, app + WebKit):         bare wails %.1f MiB   gatehouse %.1f MiB   ratio %.2f× (target ≤ 1.3×)\n",
		float64(bm)/1024, float64(gm)/1024, float64(gm)/float64(bm))
	if mt := times["gatehouse+mcp"]; len(mt) > 0 {
		m := median(mt)
		fmt.Printf("start-up with 3 MCP servers (median of %d): none %v   three %v   ratio %.2f× (target ≤ 1.05×)\n",
			*runs, gt.Round(time.Millisecond), m.Round(time.Millisecond), float64(m)/float64(gt))
	}
}

// writeMCPConfig writes settings like the other runs' and a user MCP list of
// three copies of the server argv into dir.
func writeMCPConfig(dir string, argv []string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(`{"baseURL":"http://127.0.0.1:9/v1","model":"bench","approvalMode":"safe"}`), 0o644); err != nil {
		return err
	}
	servers := map[string]any{}
	for _, n := range []string{"one", "two", "three"} {
		servers[n] = map[string]any{"command": argv[0], "args": argv[1:]}
	}
	b, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "mcp.json"), b, 0o600)
}

// measure starts argv, waits for the ready line, lets it idle, sums the PSS
// of its process tree, and stops it.
func measure(argv, env []string, settle time.Duration) (time.Duration, int, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return 0, 0, err
	}
	cmd.Stdout = nil
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	defer func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	}()
	ready := make(chan time.Duration, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "msg=ready") {
				ready <- time.Since(start)
				break
			}
		}
		for sc.Scan() {
		}
	}()
	var d time.Duration
	select {
	case d = <-ready:
	case <-time.After(90 * time.Second):
		return 0, 0, fmt.Errorf("never ready")
	}
	time.Sleep(settle)
	return d, treePSS(cmd.Process.Pid), nil
}

// treePSS sums Pss (kB) over pid and all its descendants.
func treePSS(root int) int {
	children := map[int][]int{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
		if ppid, err := strconv.Atoi(f[1]); err == nil {
			children[ppid] = append(children[ppid], pid)
		}
	}
	total := 0
	stack := []int{root}
	for len(stack) > 0 {
		pid := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		total += pss(pid)
		stack = append(stack, children[pid]...)
	}
	return total
}

func pss(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "Pss:") {
			n, _ := strconv.Atoi(strings.Fields(line)[1])
			return n
		}
	}
	return 0
}

func startXvfb() (string, func(), error) {
	r, w, err := os.Pipe()
	if err != nil {
		return "", nil, err
	}
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1440x900x24", "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		return "", nil, fmt.Errorf("start Xvfb: %w", err)
	}
	w.Close()
	line, _ := bufio.NewReader(r).ReadString('\n')
	if strings.TrimSpace(line) == "" {
		return "", nil, fmt.Errorf("Xvfb reported no display")
	}
	return ":" + strings.TrimSpace(line), func() { cmd.Process.Kill(); cmd.Wait() }, nil
}

func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "OPENAI_") || strings.HasPrefix(k, "GATEHOUSE_") || k == "DISPLAY" || k == "DBUS_SESSION_BUS_ADDRESS" {
			continue
		}
		env = append(env, kv)
	}
	return env
}

func median(ds []time.Duration) time.Duration {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[len(ds)/2]
}

func medianInt(xs []int) int {
	sort.Ints(xs)
	return xs[len(xs)/2]
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "startbench:", err)
	os.Exit(1)
}

// copyFile copies an executable into a new file.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

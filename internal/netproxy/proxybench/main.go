// Command proxybench times a confined `curl` of a local server through the
// network proxy (allow-list mode) against the same curl straight to the
// server (network on), in one run, and prints the ratios (target: <= 1.5x):
// the whole command (spawn included) and curl's own transfer time, median
// of alternating rounds. Flags: -supervisor (default: build it), -rounds,
// -size, -landlock-only. With namespaces, it also times a dev server's
// first response (a new connection's) through the forward out of the
// session's network against the same server in this machine's network
// (target: <= 1.2x; forward.go).
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"gatehouse/internal/netproxy"
	"gatehouse/internal/proc"
	"gatehouse/internal/sandbox"
	"gatehouse/internal/supervisor/suptest"
)

func main() {
	sup := flag.String("supervisor", "", "path of gatehouse-supervisor (empty: build it)")
	rounds := flag.Int("rounds", 9, "alternating rounds; the median of each kind is compared")
	size := flag.Int("size", 1<<20, "bytes the server answers")
	curls := flag.Int("curls", 5, "curl runs per command")
	landlockOnly := flag.Bool("landlock-only", false, "leave the namespaces out (Landlock and seccomp alone)")
	flag.Parse()
	if sandbox.ABI() < sandbox.NetABI {
		fail(fmt.Errorf("this kernel's Landlock has no TCP rule (ABI %d): allow-list mode cannot run here", sandbox.ABI()))
	}
	dir, err := os.MkdirTemp("", "proxybench-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	if *sup, err = suptest.HelperAt(*sup, dir); err != nil {
		fail(err)
	}
	body := []byte(strings.Repeat("x", *size))
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		fail(err)
	}
	go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write(body) }))
	addr := ln.Addr().String()
	proxy, err := netproxy.Start(netproxy.Options{Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, addr) // bench.test: the local server
	}})
	if err != nil {
		fail(err)
	}
	defer proxy.Close()
	direct := registry(*sup, dir, *landlockOnly, nil)
	proxied := registry(*sup, dir, *landlockOnly, proxy)
	defer direct.Close()
	defer proxied.Close()
	loop := func(url string) string {
		return fmt.Sprintf(`for i in $(seq %d); do curl -sS -o /dev/null -w '%%{time_total}\n' %s || exit 1; done`, *curls, url)
	}
	var dw, pw, dt, pt []time.Duration
	for range *rounds {
		w, t := run(direct, dir, loop("http://"+addr+"/"))
		dw, dt = append(dw, w), append(dt, t)
		w, t = run(proxied, dir, loop("http://bench.test/"))
		pw, pt = append(pw, w), append(pt, t)
	}
	kind := "every layer"
	if *landlockOnly {
		kind = "Landlock and seccomp alone"
	}
	fmt.Printf("confined (%s), %d curls of %d KiB per command, median of %d rounds:\n", kind, *curls, *size>>10, *rounds)
	report("whole command", median(dw), median(pw))
	report("curl's transfer time", median(dt), median(pt))
	if !*landlockOnly {
		forwardBench(direct, proxied, dir, *rounds*20)
	}
}

func report(what string, direct, proxied time.Duration) {
	reportRatio(what, "through the proxy", direct, proxied, 1.5)
}

func reportRatio(what, how string, direct, other time.Duration, target float64) {
	ratio := float64(other) / float64(direct)
	verdict := "ok"
	if ratio > target {
		verdict = fmt.Sprintf("over the %.1fx target", target)
	}
	fmt.Printf("  %-21s direct %-12v %s %-12v ratio %.2fx (target <= %.1fx: %s)\n", what+":", direct, how, other, ratio, target, verdict)
}

// registry runs commands under the helper, confined to dir with the
// network on (proxy nil) or in allow-list mode through proxy, bench.test
// on the list.
func registry(sup, dir string, landlockOnly bool, proxy *netproxy.Proxy) *proc.Registry {
	spec := suptest.BenchSpec(dir, landlockOnly)
	if proxy != nil {
		spec.ProxyPort = proxy.Port()
		spec.OpenNet = func() sandbox.NetCall {
			return proxy.Open(func(d string) bool { return netproxy.Match([]string{"bench.test"}, d) })
		}
		spec.ServeProxy = proxy.Serve
	}
	return proc.NewRegistry(proc.Options{Shell: "/bin/bash", PortScan: 50 * time.Millisecond, Supervisor: sup, Sandbox: func(string) *sandbox.Policy {
		p := sandbox.Build(spec)
		return &p
	}})
}

// run execs command and returns its wall time and the sum of the times
// curl printed.
func run(r *proc.Registry, dir, command string) (time.Duration, time.Duration) {
	var out, errs strings.Builder
	began := time.Now()
	res, err := r.Exec(context.Background(), proc.ExecSpec{Command: command, Dir: dir, Timeout: time.Minute, Stdout: &out, Stderr: &errs})
	wall := time.Since(began)
	if err != nil || res.ExitCode != 0 {
		fail(fmt.Errorf("%s: %v (exit %d) %s", command, err, res.ExitCode, errs.String()))
	}
	var total time.Duration
	for _, f := range strings.Fields(out.String()) {
		s, err := strconv.ParseFloat(f, 64)
		if err != nil {
			fail(fmt.Errorf("curl printed %q", f))
		}
		total += time.Duration(s * float64(time.Second))
	}
	return wall, total
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "proxybench:", err)
	os.Exit(1)
}

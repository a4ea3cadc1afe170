//go:build unix

package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"syscall"
	"testing"
	"time"

	"gatehouse/internal/proc"
	"gatehouse/internal/supervisor/suptest"
)

func main() {
	sup := flag.String("supervisor", "", "path of gatehouse-supervisor (empty: build it)")
	rounds := flag.Int("rounds", 7, "alternating rounds; the median of each kind is compared")
	landlockOnly := flag.Bool("landlock-only", false, "leave the namespaces out (Landlock and seccomp alone)")
	flag.DurationVar(&pause, "pause", pause, "the pause before each exec after a pause")
	flag.Parse()
	dir, err := os.MkdirTemp("", "sandboxbench-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	if *sup, err = suptest.HelperAt(*sup, dir); err != nil {
		fail(err)
	}
	direct, supervised, confined := Registries(*sup, dir, *landlockOnly)
	defer direct.Close()
	defer supervised.Close()
	var d, s, dc, sc []time.Duration
	for range *rounds {
		t, c := measure(ExecTrue(direct, dir))
		d, dc = append(d, t), append(dc, c)
		t, c = measure(ExecTrue(supervised, dir))
		s, sc = append(s, t), append(sc, c)
	}
	md, ms := median(d), median(s)
	kind := "supervised, confined (every layer)"
	if *landlockOnly {
		kind = "supervised, confined (Landlock and seccomp alone)"
	}
	if !confined {
		kind = "supervised, NOT confined (no Landlock on this kernel)"
	}
	fmt.Printf("bash exec true, direct:      %v per exec (median of %d rounds)\n", md, *rounds)
	fmt.Printf("bash exec true, %s: %v per exec\n", kind, ms)
	ratio := float64(ms) / float64(md)
	fmt.Printf("ratio: %.2fx (target <= %.1fx: %s)\n", ratio, targetBackToBack, verdict(ratio, targetBackToBack))
	// Commands as an agent runs them, seconds apart (here 25 ms): the spare
	// helper is ready when one comes.
	sd, ss := spaced(direct, dir, 7**rounds), spaced(supervised, dir, 7**rounds)
	paused := float64(ss) / float64(sd)
	fmt.Printf("one exec after a pause (median of %d): direct %v, supervised %v, ratio %.2fx (target <= %.1fx: %s)\n",
		7**rounds, sd, ss, paused, targetPaused, verdict(paused, targetPaused))
	// On a machine whose CPUs are busy, wall time follows CPU time.
	fmt.Printf("CPU per exec (this process and every process it waited for): direct %v, supervised %v, ratio %.2fx\n",
		median(dc), median(sc), float64(median(sc))/float64(median(dc)))
}

// The targets for the ratios.
const (
	targetBackToBack = 2.5
	targetPaused     = 1.3
)

func verdict(ratio, target float64) string {
	if ratio > target {
		return fmt.Sprintf("over the %.1fx target", target)
	}
	return "ok"
}

// spaced times n execs of `true` made 25 ms apart and returns the median.
var pause = 25 * time.Millisecond

func spaced(r *proc.Registry, dir string, n int) time.Duration {
	var ds []time.Duration
	for range n {
		time.Sleep(pause)
		began := time.Now()
		if _, err := r.Exec(context.Background(), proc.ExecSpec{Command: "true", Dir: dir, Timeout: time.Minute}); err != nil {
			fail(err)
		}
		ds = append(ds, time.Since(began))
	}
	return median(ds)
}

// measure runs b and returns its wall time and its CPU time per exec.
func measure(b func(*testing.B)) (wall, cpu time.Duration) {
	before := cpuTime()
	r := testing.Benchmark(b)
	if r.N == 0 {
		return 0, 0
	}
	return time.Duration(r.NsPerOp()), (cpuTime() - before) / time.Duration(r.N)
}

// cpuTime is the user and system time of this process and of the children
// (and their waited-for descendants) it reaped.
func cpuTime() time.Duration {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if syscall.Getrusage(who, &ru) == nil {
			total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
	}
	return total
}

func median(ds []time.Duration) time.Duration {
	ds = slices.Clone(ds)
	slices.Sort(ds)
	return ds[len(ds)/2]
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "sandboxbench:", err)
	os.Exit(1)
}

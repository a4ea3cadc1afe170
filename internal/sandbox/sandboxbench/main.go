package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"gatehouse/internal/supervisor/suptest"
)

func main() {
	sup := flag.String("supervisor", "", "path of gatehouse-supervisor (empty: build it)")
	rounds := flag.Int("rounds", 7, "alternating rounds; the median of each kind is compared")
	flag.Parse()
	dir, err := os.MkdirTemp("", "sandboxbench-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	if *sup == "" {
		*sup = filepath.Join(dir, "gatehouse-supervisor")
		if err := suptest.Build(*sup); err != nil {
			fail(err)
		}
	}
	direct, supervised, confined := Registries(*sup, dir)
	defer direct.Close()
	defer supervised.Close()
	var d, s []time.Duration
	for range *rounds {
		d = append(d, perOp(testing.Benchmark(ExecTrue(direct, dir))))
		s = append(s, perOp(testing.Benchmark(ExecTrue(supervised, dir))))
	}
	md, ms := median(d), median(s)
	kind := "supervised, confined (Landlock)"
	if !confined {
		kind = "supervised, NOT confined (no Landlock on this kernel)"
	}
	fmt.Printf("bash exec true, direct:      %v per exec (median of %d rounds)\n", md, *rounds)
	fmt.Printf("bash exec true, %s: %v per exec\n", kind, ms)
	ratio := float64(ms) / float64(md)
	verdict := "ok"
	if ratio > 1.5 {
		verdict = "over the 1.5x target"
	}
	fmt.Printf("ratio: %.2fx (target <= 1.5x: %s)\n", ratio, verdict)
}

func perOp(r testing.BenchmarkResult) time.Duration { return time.Duration(r.NsPerOp()) }

func median(ds []time.Duration) time.Duration {
	ds = slices.Clone(ds)
	slices.Sort(ds)
	return ds[len(ds)/2]
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "sandboxbench:", err)
	os.Exit(1)
}

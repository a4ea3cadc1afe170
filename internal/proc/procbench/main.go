//go:build linux

// Command procbench measures how fast a proc.Registry takes in the output of
// a process that floods its terminal, against `cat >/dev/null` reading the
// same kind of pty, and how much the registry's memory grows meanwhile.
//
//	go run ./internal/proc/procbench [-bytes N] [-runs N]
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/creack/pty"

	"gatehouse/internal/proc"
)

func main() {
	size := flag.Int64("bytes", 1<<30, "bytes the process writes")
	runs := flag.Int("runs", 1, "runs of each side; the best counts")
	ring := flag.Int("ring", proc.DefaultRingSize, "ring buffer size of the registry")
	flag.Parse()
	flood := fmt.Sprintf("head -c %d /dev/zero", *size)

	var catBest, regBest time.Duration
	var peak int64
	for i := 0; i < *runs; i++ {
		d, err := catRun(flood)
		if err != nil {
			fail(err)
		}
		catBest = best(catBest, d)
		d, grow, err := registryRun(flood, *size, *ring)
		if err != nil {
			fail(err)
		}
		regBest, peak = best(regBest, d), max(peak, grow)
	}
	mb := func(n int64) float64 { return float64(n) / (1 << 20) }
	rate := func(d time.Duration) float64 { return mb(*size) / d.Seconds() }
	ratio := rate(regBest) / rate(catBest)
	limit := int64(*ring) + 32<<20
	fmt.Printf("proc flood: %.0f MiB through a pty, best of %d runs\n", mb(*size), *runs)
	fmt.Printf("  cat >/dev/null   %8.1f MiB/s\n", rate(catBest))
	fmt.Printf("  proc.Registry    %8.1f MiB/s  ratio %.2f×  (target ≥ 0.80×) %s\n", rate(regBest), ratio, verdict(ratio >= 0.8))
	fmt.Printf("  peak RSS growth  %8.1f MiB     (target ≤ ring %.1f MiB + 32 MiB = %.1f MiB) %s\n",
		mb(peak), mb(int64(*ring)), mb(limit), verdict(peak <= limit))
}

func best(a, b time.Duration) time.Duration {
	if a == 0 || b < a {
		return b
	}
	return a
}

func verdict(ok bool) string {
	if ok {
		return "ok"
	}
	return "MISSED"
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "procbench:", err)
	os.Exit(1)
}

// catRun floods a pty and lets cat read its master side into /dev/null.
func catRun(flood string) (time.Duration, error) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return 0, err
	}
	defer null.Close()
	began := time.Now()
	producer := exec.Command("/bin/sh", "-c", flood)
	master, err := pty.StartWithSize(producer, &pty.Winsize{Rows: 24, Cols: 120})
	if err != nil {
		return 0, err
	}
	defer master.Close()
	cat := exec.Command("cat")
	cat.Stdin, cat.Stdout = master, null
	if err := cat.Start(); err != nil {
		return 0, err
	}
	if err := producer.Wait(); err != nil {
		return 0, fmt.Errorf("flood: %w", err)
	}
	cat.Wait() // ends with EIO once the terminal side is closed
	return time.Since(began), nil
}

// registryRun floods a process of a registry (with an Observer taking every
// output event) and returns the time until the registry held every byte and
// saw the process end, and the growth of this process's peak RSS.
func registryRun(flood string, size int64, ring int) (time.Duration, int64, error) {
	r := proc.NewRegistry(proc.Options{RingSize: ring, Shell: "/bin/sh", Observer: &countObserver{}})
	defer r.Close()
	runtime.GC()
	base := resetPeak()
	began := time.Now()
	in, err := r.Start(flood, os.TempDir())
	if err != nil {
		return 0, 0, err
	}
	for {
		l, err := r.Logs(in.ProcessID, -1, 1)
		if err != nil {
			return 0, 0, err
		}
		if l.Status != proc.StatusRunning && l.NextOffset >= size {
			break
		}
		if l.Status != proc.StatusRunning && time.Since(began) > 10*time.Minute {
			return 0, 0, fmt.Errorf("the registry got %d of %d bytes", l.NextOffset, size)
		}
		time.Sleep(2 * time.Millisecond)
	}
	d := time.Since(began)
	return d, statusKB("VmHWM")*1024 - base, nil
}

// resetPeak resets VmHWM to the current RSS (Linux clear_refs) and returns
// the RSS in bytes; without clear_refs, the peak so far is the baseline.
func resetPeak() int64 {
	if os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) != nil {
		return statusKB("VmHWM") * 1024
	}
	return statusKB("VmRSS") * 1024
}

func statusKB(field string) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}

type countObserver struct{ chunks, bytes int64 }

func (o *countObserver) Started(proc.Info) {}
func (o *countObserver) Output(c proc.Chunk) {
	o.chunks++
	o.bytes += int64(len(c.Data))
}
func (o *countObserver) Exited(proc.Info)  {}
func (o *countObserver) Updated(proc.Info) {}

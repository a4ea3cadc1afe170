// Command patchbench times Gatehouse's apply_patch against Codex's Rust
// apply_patch on the same generated inputs, in one run, and checks that the
// time grows linearly with the input.
//
// Gatehouse is timed as a process running the headless path (this binary
// re-executes itself as `patchbench tool apply_patch --workspace DIR`, which
// is what `gatehouse tool` runs), Codex as its binary invoked under the name
// apply_patch; both read the patch from stdin and start from a fresh copy of
// the tree on each run. The in-process time of parse + plan + apply is also
// shown, without process start-up.
//
//	patchbench -codex PATH [-runs 7]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"gatehouse/internal/cli"
	"gatehouse/internal/patch"
	"gatehouse/internal/patch/patchgen"
	"gatehouse/internal/workspace"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "tool" {
		os.Exit(cli.Tool(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	codex := flag.String("codex", "", "path to the codex binary (required)")
	runs := flag.Int("runs", 7, "timed runs per case and implementation (the median is shown)")
	flag.BoolVar(&cpuTime, "cpu", false, "compare processes by CPU time (user+system) instead of wall time")
	flag.StringVar(&scratchRoot, "scratch", "", "folder to build the trees in (default: the system's temporary folder)")
	flag.Parse()
	if *codex == "" {
		fmt.Fprintln(os.Stderr, "patchbench: -codex is required")
		os.Exit(2)
	}
	if err := run(*codex, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "patchbench:", err)
		os.Exit(1)
	}
}

// cpuTime makes timeCmd report user+system CPU time instead of wall time.
var cpuTime bool

// scratchRoot is where the trees are built. Every run deletes thousands of
// files, and ext4 without a journal will not reuse an inode for minutes
// after its file was deleted, so creating files there gets slower run
// after run: a cost of the benchmark, not of either program, and one only
// Gatehouse pays (it creates a temporary file per changed file; Codex
// rewrites in place). The Makefile points this at a tmpfs when there is one.
var scratchRoot string

type timing struct{ gh, cx, inproc time.Duration }

func run(codexBin string, runs int) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	scratch, err := os.MkdirTemp(scratchRoot, "patchbench-")
	if err != nil {
		return err
	}
	fmt.Printf("trees built on %s (%s)\n", filepath.Dir(scratch), fsType(scratch))
	defer os.RemoveAll(scratch)
	// Codex applies a patch standalone when invoked as apply_patch.
	codexAbs, err := filepath.Abs(codexBin)
	if err != nil {
		return err
	}
	applyPatch := filepath.Join(scratch, "apply_patch")
	if err := os.Symlink(codexAbs, applyPatch); err != nil {
		return err
	}

	cases := []patchgen.Case{
		patchgen.BigFile(10000, 200), patchgen.BigFile(20000, 400),
		patchgen.ManyFiles(200), patchgen.ManyFiles(400),
	}
	results := make([]timing, len(cases))
	what := "wall time"
	if cpuTime {
		what = "CPU time, user+system"
	}
	fmt.Printf("apply_patch: Gatehouse vs Codex (%s, median of %d runs, process start-up included)\n\n", what, runs)
	fmt.Printf("%-34s %10s %12s %10s %12s %8s\n", "case", "input", "gatehouse", "codex", "in-process", "ratio")
	for i, c := range cases {
		var gh, cx, ip []time.Duration
		for r := 0; r < runs; r++ {
			d, err := timeGatehouse(self, scratch, c)
			if err != nil {
				return fmt.Errorf("%s: gatehouse: %w", c.Name, err)
			}
			gh = append(gh, d)
			d, err = timeCodex(applyPatch, scratch, c)
			if err != nil {
				return fmt.Errorf("%s: codex: %w", c.Name, err)
			}
			cx = append(cx, d)
			d, err = timeInProcess(scratch, c)
			if err != nil {
				return fmt.Errorf("%s: in-process: %w", c.Name, err)
			}
			ip = append(ip, d)
		}
		t := timing{median(gh), median(cx), median(ip)}
		results[i] = t
		fmt.Printf("%-34s %9.1fK %10.1fms %8.1fms %10.1fms %8.2f\n", c.Name, float64(size(c))/1024,
			ms(t.gh), ms(t.cx), ms(t.inproc), float64(t.gh)/float64(t.cx))
	}
	if err := sameResult(self, applyPatch, scratch, cases[0]); err != nil {
		return err
	}
	if err := sameResult(self, applyPatch, scratch, cases[2]); err != nil {
		return err
	}
	fmt.Println("\nBoth produce byte-identical trees.")
	fmt.Println("\nScaling (time at 2x input / time at 1x; linear is ~2.0):")
	for _, pair := range [][2]int{{0, 1}, {2, 3}} {
		a, b := results[pair[0]], results[pair[1]]
		fmt.Printf("  %-34s gatehouse %.2f (in-process %.2f), codex %.2f\n", cases[pair[0]].Name+" -> 2x",
			float64(b.gh)/float64(a.gh), float64(b.inproc)/float64(a.inproc), float64(b.cx)/float64(a.cx))
	}
	worst := 0.0
	for _, t := range results {
		worst = max(worst, float64(t.gh)/float64(t.cx))
	}
	verdict := "met"
	if worst > 1.0 {
		verdict = "NOT met"
	}
	fmt.Printf("\nWorst ratio gatehouse/codex: %.2f (target <= 1.0: %s)\n", worst, verdict)
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func size(c patchgen.Case) int {
	n := len(c.Patch)
	for _, f := range c.Files {
		n += len(f)
	}
	return n
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// fresh writes c's tree into a new folder under scratch.
func fresh(scratch string, c patchgen.Case) (string, error) {
	dir, err := os.MkdirTemp(scratch, "tree-")
	if err != nil {
		return "", err
	}
	for p, b := range c.Files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(full, b, 0o644); err != nil {
			return "", err
		}
	}
	return dir, nil
}

func timeCmd(cmd *exec.Cmd, patchText string) (time.Duration, error) {
	var stderr bytes.Buffer
	cmd.Stdin = strings.NewReader(patchText)
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil {
		return 0, fmt.Errorf("%v: %s", err, stderr.String())
	}
	if cpuTime {
		return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), nil
	}
	return d, nil
}

func timeGatehouse(self, scratch string, c patchgen.Case) (time.Duration, error) {
	dir, err := fresh(scratch, c)
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	cmd := exec.Command(self, "tool", "apply_patch", "--workspace", dir)
	cmd.Stdout = nil
	return timeCmd(cmd, c.Patch)
}

func timeCodex(applyPatch, scratch string, c patchgen.Case) (time.Duration, error) {
	dir, err := fresh(scratch, c)
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	cmd := exec.Command(applyPatch)
	cmd.Dir = dir
	return timeCmd(cmd, c.Patch)
}

func timeInProcess(scratch string, c patchgen.Case) (time.Duration, error) {
	dir, err := fresh(scratch, c)
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	ws, err := workspace.New(dir, workspace.Options{ProtectedDirs: []string{}})
	if err != nil {
		return 0, err
	}
	start := time.Now()
	p, err := patch.Parse(c.Patch)
	if err != nil {
		return 0, err
	}
	plan, err := patch.Preview(ws, p, nil)
	if err != nil {
		return 0, err
	}
	if err := plan.Apply(nil); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}

// sameResult applies c with both and compares the trees byte for byte.
func sameResult(self, applyPatch, scratch string, c patchgen.Case) error {
	a, err := fresh(scratch, c)
	if err != nil {
		return err
	}
	b, err := fresh(scratch, c)
	if err != nil {
		return err
	}
	defer os.RemoveAll(a)
	defer os.RemoveAll(b)
	if _, err := timeCmd(exec.Command(self, "tool", "apply_patch", "--workspace", a), c.Patch); err != nil {
		return err
	}
	cmd := exec.Command(applyPatch)
	cmd.Dir = b
	if _, err := timeCmd(cmd, c.Patch); err != nil {
		return err
	}
	ta, tb := tree(a), tree(b)
	if len(ta) != len(tb) {
		return fmt.Errorf("%s: gatehouse left %d files, codex %d", c.Name, len(ta), len(tb))
	}
	for p, x := range ta {
		if tb[p] != x {
			return fmt.Errorf("%s: %s differs between gatehouse and codex", c.Name, p)
		}
	}
	return nil
}

func tree(dir string) map[string]string {
	t := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			t[rel] = string(b)
		}
		return nil
	})
	return t
}

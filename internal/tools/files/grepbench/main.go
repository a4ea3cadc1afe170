// Command grepbench times `gatehouse tool grep` against ripgrep (`rg -n`)
// on the same folder in one run, warm cache, for a literal and a regex
// pattern, and prints each median wall time and their ratio. It prints;
// it asserts nothing.
//
//	go run ./internal/tools/files/grepbench -gatehouse BIN [-dir DIR] [-runs 5]
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"time"
)

func main() {
	gatehouse := flag.String("gatehouse", "build/bin/gatehouse", "the gatehouse binary")
	rg := flag.String("rg", "rg", "the ripgrep binary")
	dir := flag.String("dir", filepath.Join(runtime.GOROOT(), "src"), "the folder searched")
	runs := flag.Int("runs", 5, "runs of each side; the median counts")
	flag.Parse()
	if _, err := exec.LookPath(*rg); err != nil {
		fail(fmt.Errorf("%s is not installed (Debian: apt-get install ripgrep): %w", *rg, err))
	}
	fmt.Printf("grep in %s, median of %d warm runs, wall time\n", *dir, *runs)
	for _, c := range []struct{ kind, pattern string }{
		{"literal", "func NewReader"},
		{"regex", `func \w+Reader\(`},
	} {
		args, _ := json.Marshal(map[string]any{"pattern": c.pattern, "maxResults": 1000})
		gh := exec.Command(*gatehouse, "tool", "grep", "--workspace", *dir, "--args", string(args))
		rgc := exec.Command(*rg, "-n", "--", c.pattern, ".")
		rgc.Dir = *dir
		// A first run of each warms the cache and gives the counts.
		ghOut, err := output(gh)
		if err != nil {
			fail(fmt.Errorf("gatehouse: %w", err))
		}
		var res struct {
			Matches   []json.RawMessage `json:"matches"`
			Truncated bool              `json:"truncated"`
		}
		if err := json.Unmarshal(ghOut, &res); err != nil {
			fail(fmt.Errorf("gatehouse output: %w", err))
		}
		rgOut, err := output(rgc)
		if err != nil {
			fail(fmt.Errorf("rg: %w", err))
		}
		var ghTimes, rgTimes []time.Duration
		for range *runs {
			ghTimes = append(ghTimes, timed(gh))
			rgTimes = append(rgTimes, timed(rgc))
		}
		g, r := median(ghTimes), median(rgTimes)
		fmt.Printf("  %-7s %-20q gatehouse %4d matches %8s   rg %4d matches %8s   ratio %.2fx\n",
			c.kind, c.pattern, len(res.Matches), g.Round(time.Millisecond),
			bytes.Count(rgOut, []byte("\n")), r.Round(time.Millisecond), float64(g)/float64(r))
	}
}

// output runs a copy of cmd and returns its standard output.
func output(cmd *exec.Cmd) ([]byte, error) {
	c := exec.Command(cmd.Path, cmd.Args[1:]...)
	c.Dir = cmd.Dir
	var stderr bytes.Buffer
	c.Stderr = &stderr
	out, err := c.Output()
	if err != nil {
		return nil, fmt.Errorf("%v: %s", err, stderr.Bytes())
	}
	return out, nil
}

// timed runs a copy of cmd, its output discarded as a pipe would take it,
// and returns the wall time.
func timed(cmd *exec.Cmd) time.Duration {
	start := time.Now()
	if _, err := output(cmd); err != nil {
		fail(err)
	}
	return time.Since(start)
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "grepbench:", err)
	os.Exit(1)
}

// Command lspbench times a one-line change's diagnostics in a warm gopls:
// through Gatehouse's Manager.Check (what an edit's after-check and the
// dialog's overlay do) against a bare LSP client's didChange and publish
// of the same gopls build, in one run, and prints the ratio of medians.
// Target: <= 1.5x.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"gatehouse/internal/lsp"
)

const clean = "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n"
const broken = "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(undefinedName)\n}\n"

func main() {
	gopls := flag.String("gopls", "gopls", "the gopls to run")
	runs := flag.Int("runs", 20, "changes timed per client")
	flag.Parse()
	prog, err := lsp.LookPath(*gopls, os.Environ())
	if err != nil {
		fail(err)
	}
	root, _ := os.MkdirTemp("", "lspbench-")
	defer os.RemoveAll(root)
	root, _ = filepath.EvalSymlinks(root)
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/m\n\ngo 1.21\n"), 0o644)
	file := filepath.Join(root, "main.go")
	os.WriteFile(file, []byte(clean), 0o644)

	bare, err := lsp.StartBareGopls(prog, root, file, clean)
	if err != nil {
		fail(err)
	}
	var bareT []time.Duration
	for i := 0; i < *runs; i++ {
		d, err := bare.Change([]string{broken, clean}[i%2])
		if err != nil {
			fail(err)
		}
		bareT = append(bareT, d)
	}
	bare.Close()

	m := lsp.New(lsp.Options{Root: root, Servers: []lsp.ServerConfig{{Name: "gopls", Command: prog, Patterns: []string{"*.go"}}}})
	defer m.Close()
	ctx := context.Background()
	m.Check(ctx, lsp.Disk(file), false) // warm
	var ghT []time.Duration
	for i := 0; i < *runs; i++ {
		text := []string{broken, clean}[i%2]
		start := time.Now()
		r := m.Check(ctx, map[string]*string{file: &text}, false)
		ghT = append(ghT, time.Since(start))
		if len(r.Problems) > 0 {
			fail(fmt.Errorf("%v", r.Problems))
		}
	}
	b, g := median(bareT), median(ghT)
	fmt.Printf("one-line change's diagnostics, warm gopls, median of %d: bare client %s, Gatehouse %s, ratio %.2fx (target <= 1.5x)\n",
		*runs, b.Round(time.Microsecond), g.Round(time.Microsecond), float64(g)/float64(b))
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "lspbench:", err)
	os.Exit(1)
}

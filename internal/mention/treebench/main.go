// Command treebench measures the window's file tree and @ list on a big
// workspace (issue 44): a generated tree of -files files in folders of 50,
// beside a node_modules of as many that its .gitignore leaves out, and one
// file 12 folders deep. It prints, as ratios against a baseline measured in
// the same run (median of -runs, warm cache):
//
//   - opening the file tree (the watch starting, then the top folder's
//     listing) against a plain listing of the top folder (ls);
//   - the first @ suggestions (an empty query, then a query for the deep
//     file), and a keystroke after them (the walked paths searched again),
//     against find listing the tree without node_modules.
//
// Run by `make bench-tree`.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"gatehouse/internal/browse"
	"gatehouse/internal/mention"
	"gatehouse/internal/watch"
	"gatehouse/internal/workspace"
)

func main() {
	files := flag.Int("files", 100_000, "files in the workspace (and as many in its node_modules)")
	runs := flag.Int("runs", 5, "runs of each, the median is printed")
	flag.Parse()
	root, err := os.MkdirTemp("", "gatehouse-treebench-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(root)
	start := time.Now()
	deep := generate(root, *files)
	fmt.Printf("tree: %d files and a node_modules of %d in %s (written in %v)\n", *files, *files, root, time.Since(start).Round(time.Millisecond))
	ws, err := workspace.New(root, workspace.Options{})
	if err != nil {
		fail(err)
	}

	ls := median(*runs, func() { run("ls", "-1", root) })
	open := median(*runs, func() {
		degraded := ""
		b, err := browse.Open(ws, watch.LiveOptions{OnDegraded: func(r string) { degraded = r }})
		if err != nil {
			fail(err)
		}
		if _, err := b.ListDir("."); err != nil {
			fail(err)
		}
		b.Stop()
		if degraded != "" {
			fmt.Println("  watch degraded:", degraded)
		}
	})
	fmt.Printf("open the file tree: %v; ls of the top folder %v: %.2fx\n", open, ls, ratio(open, ls))

	find := median(*runs, func() { run("find", root, "-path", filepath.Join(root, "node_modules"), "-prune", "-o", "-print") })
	first := median(*runs, func() { mention.Candidates(context.Background(), ws, "", 20) })
	var got []string
	deepQ := median(*runs, func() { got = mention.Candidates(context.Background(), ws, "needle_hand", 20) })
	if len(got) == 0 || got[0] != deep {
		fail(fmt.Errorf("@needle_hand found %v, not %s", got, deep))
	}
	ix := mention.Walk(context.Background(), ws)
	typed := median(*runs, func() { ix.Search("needle_hand", 20) })
	fmt.Printf("first @ suggestions: %v; find of the tree %v: %.2fx\n", first, find, ratio(first, find))
	fmt.Printf("the next keystroke (%d paths walked once): %v; find of the tree %v: %.3fx\n", ix.Len(), typed, find, ratio(typed, find))
	fmt.Printf("@ query for a file 12 folders deep: %v (found); find of the tree %v: %.2fx\n", deepQ, find, ratio(deepQ, find))
}

// generate writes the tree under root and returns the deep file's path.
func generate(root string, files int) string {
	write := func(p string, data string) {
		if err := os.WriteFile(filepath.Join(root, p), []byte(data), 0o644); err != nil {
			fail(err)
		}
	}
	mkdir := func(p string) {
		if err := os.MkdirAll(filepath.Join(root, p), 0o755); err != nil {
			fail(err)
		}
	}
	for i := 0; i < files; i += 50 {
		src, mod := fmt.Sprintf("src/pkg%05d", i/50), fmt.Sprintf("node_modules/mod%05d/lib", i/50)
		mkdir(src)
		mkdir(mod)
		for j := range 50 {
			write(fmt.Sprintf("%s/file%02d.go", src, j), "")
			write(fmt.Sprintf("%s/index%02d.js", mod, j), "")
		}
	}
	write(".gitignore", "node_modules/\n")
	parts := []string{"src", "zz"}
	for i := range 10 {
		parts = append(parts, fmt.Sprintf("level%02d", i+1))
	}
	deep := strings.Join(parts, "/") + "/needle_handler.go"
	mkdir(filepath.Dir(deep))
	write(deep, "")
	return deep
}

func run(name string, args ...string) {
	cmd := exec.Command(name, args...)
	cmd.Stdout = nil
	if err := cmd.Run(); err != nil {
		fail(fmt.Errorf("%s: %w", name, err))
	}
}

func median(n int, f func()) time.Duration {
	f() // warm
	var ds []time.Duration
	for range n {
		t := time.Now()
		f()
		ds = append(ds, time.Since(t))
	}
	slices.Sort(ds)
	return ds[len(ds)/2].Round(10 * time.Microsecond)
}

func ratio(a, b time.Duration) float64 { return float64(a) / float64(b) }

func fail(err error) {
	fmt.Fprintln(os.Stderr, "treebench:", err)
	os.Exit(1)
}

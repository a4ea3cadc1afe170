// Command licensegen writes the About box's list of bundled Go modules and
// npm packages with their licences (see package about). The Makefile runs it
// before every build of the frontend.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"gatehouse/internal/about"
)

func main() {
	o := about.Options{}
	flag.StringVar(&o.Version, "version", "dev", "the app's version")
	flag.StringVar(&o.Dir, "dir", ".", "the Go main package's directory")
	flag.StringVar(&o.Tags, "tags", "", "the build tags of the binary")
	flag.StringVar(&o.Frontend, "frontend", "frontend", "the frontend folder")
	out := flag.String("o", "", "output file (default: stdout)")
	flag.Parse()
	list, warnings, err := about.Collect(o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "licensegen:", err)
		os.Exit(1)
	}
	for _, w := range warnings {
		fmt.Fprintln(os.Stderr, "licensegen: warning:", w)
	}
	b, err := json.Marshal(list)
	if err != nil {
		fmt.Fprintln(os.Stderr, "licensegen:", err)
		os.Exit(1)
	}
	if *out == "" {
		os.Stdout.Write(append(b, '\n'))
		return
	}
	// Written beside and renamed, so a reader never sees half a file.
	tmp := filepath.Join(filepath.Dir(*out), "."+filepath.Base(*out)+".tmp")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err == nil {
		err = os.Rename(tmp, *out)
	}
	if err != nil {
		os.Remove(tmp)
		fmt.Fprintln(os.Stderr, "licensegen:", err)
		os.Exit(1)
	}
}

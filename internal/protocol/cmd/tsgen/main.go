// Command tsgen writes frontend/src/bridge/protocol.gen.ts (the types) and
// bound.gen.ts (the bound methods' typed calls) from the Go types of
// internal/protocol and the bound services. Run it from the module root:
//
//	go run ./internal/protocol/cmd/tsgen [-o path] [-bound path]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"gatehouse/internal/protocol/tsgen"
)

func main() {
	out := flag.String("o", tsgen.DefaultOutput, "file to write the types to")
	boundOut := flag.String("bound", tsgen.BoundOutput, "file to write the bound methods' calls to")
	flag.Parse()
	for _, f := range []struct {
		path string
		gen  func() ([]byte, error)
	}{{*out, tsgen.Generate}, {*boundOut, tsgen.GenerateBound}} {
		if err := write(f.path, f.gen); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

func write(path string, gen func() ([]byte, error)) error {
	src, err := gen()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, src, 0o644)
}

// Command tsgen writes frontend/src/bridge/protocol.gen.ts from the Go types
// of internal/protocol. Run it from the module root:
//
//	go run ./internal/protocol/cmd/tsgen [-o path]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"gatehouse/internal/protocol/tsgen"
)

func main() {
	out := flag.String("o", tsgen.DefaultOutput, "file to write")
	flag.Parse()
	src, err := tsgen.Generate()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

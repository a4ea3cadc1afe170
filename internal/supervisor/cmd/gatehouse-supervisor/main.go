// Command gatehouse-supervisor runs one shell command for Gatehouse: see
// package supervisor. Build it with CGO_ENABLED=0 beside the app.
package main

import (
	"os"

	"gatehouse/internal/supervisor"
)

func main() { os.Exit(supervisor.Main(os.Args[1:])) }

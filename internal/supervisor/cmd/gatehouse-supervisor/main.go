// Command gatehouse-supervisor runs one shell command for Gatehouse: see
// package supervisor. Build it with CGO_ENABLED=0 beside the app.
//go:debug containermaxprocs=0
//go:debug updatemaxprocs=0

package main

import (
	"os"

	"gatehouse/internal/supervisor"
)

func main() { os.Exit(supervisor.Main(os.Args[1:])) }

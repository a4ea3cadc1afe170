// Command crashhost is a stand-in for the app in crash tests of package
// proc: it starts one command through a Registry (under the supervisor
// helper when -supervisor is given), prints "ready" and waits to be killed.
// The command's processes carry -mark in their environment, so the test
// can find them in /proc.
package main

import (
	"flag"
	"fmt"
	"os"

	"gatehouse/internal/proc"
	"gatehouse/internal/sandbox"
)

func main() {
	sup := flag.String("supervisor", "", "path of the supervisor helper (empty: run directly)")
	ledger := flag.String("ledger", "", "ledger folder (empty: none)")
	mark := flag.String("mark", "", "NAME=value added to the command's environment")
	command := flag.String("cmd", "sleep 300", "command to start")
	dir := flag.String("dir", "/", "folder to start it in")
	confine := flag.String("confine", "", "confine the command: all (every layer) or landlock")
	flag.Parse()
	o := proc.Options{Supervisor: *sup, Env: func() []string { return append(os.Environ(), *mark) }}
	if *confine != "" {
		l := sandbox.Detect()
		if *confine == sandbox.LandlockOnly {
			l.Bwrap = ""
		}
		p := sandbox.Build(sandbox.Spec{Workspace: *dir, Env: os.Environ(), Layers: l})
		o.Sandbox = func(string) *sandbox.Policy { return &p }
	}
	if *ledger != "" {
		l, err := proc.OpenLedger(*ledger)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		o.Ledger = l
	}
	r := proc.NewRegistry(o)
	in, err := r.Start(*command, *dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("ready", in.PID)
	select {}
}

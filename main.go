// Command gatehouse is a desktop coding agent. With a subcommand it runs
// headless (no display needed); without one it opens the window.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"gatehouse/internal/commands"
	"gatehouse/internal/gui"
	"gatehouse/internal/proc"
	"gatehouse/internal/session"
	"gatehouse/internal/settings"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	started := time.Now()
	// Subcommands run headless: see internal/commands.
	if len(args) > 0 {
		if c, ok := commands.Find(args[0], version); ok {
			return c.Run(args[1:], stdout, stderr)
		}
	}
	fs := flag.NewFlagSet("gatehouse", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := commands.DefineWindowFlags(fs)
	workspace, approval, baseURL, model, api := f.Workspace, f.Approval, f.BaseURL, f.Model, f.API
	fs.Usage = func() { commands.PrintHelp(stderr, version) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "gatehouse: unknown command %q (gatehouse --help lists them)\n", fs.Arg(0))
		return 2
	}
	if !settings.ValidAPI(*api) {
		fmt.Fprintf(stderr, "gatehouse: unknown --api %q: use chat or responses\n", *api)
		return 2
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	cfgDir, err := settings.DefaultDir()
	if err != nil {
		fmt.Fprintln(stderr, "gatehouse:", err)
		return 1
	}
	store := settings.NewStore(cfgDir)
	dataDir, err := session.DefaultDir()
	if err != nil {
		log.Warn("sessions will not be saved", "err", err)
	}
	gui.Version = version
	app := gui.NewApp(started, log, store, settings.Flags{BaseURL: *baseURL, Model: *model, API: *api}, dataDir)
	if err := gui.Start(app, *approval, *workspace); err != nil {
		fmt.Fprintln(stderr, "gatehouse:", err)
		return 2
	}
	// SIGTERM/SIGINT: end the session's processes, whole groups, then exit.
	_, shutdown, _ := gui.Hooks(app)
	stopSignals := proc.HandleSignals(func(sig os.Signal) {
		shutdown(context.Background())
		os.Exit(proc.ExitCode(sig))
	})
	defer stopSignals()
	if err := runWindow(app); err != nil {
		fmt.Fprintln(stderr, "gatehouse:", err)
		return 1
	}
	return 0
}

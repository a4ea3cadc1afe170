// Command gatehouse is a desktop coding agent. With a subcommand it runs
// headless (no display needed); without one it opens the window.
package main

import (
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"

	"gatehouse/internal/proc"
	"gatehouse/internal/sandbox/host"
	"gatehouse/internal/session"
	"gatehouse/internal/settings"
)

//go:embed all:frontend/dist
var assets embed.FS

// The window's icon, the one the package's menu entry shows.
//
//go:embed build/appicon.png
var appIcon []byte

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	started := time.Now()
	// Subcommands run headless: see main_commands.go.
	if len(args) > 0 {
		if c, ok := findSubcommand(args[0]); ok {
			return c.run(args[1:], stdout, stderr)
		}
	}
	fs := flag.NewFlagSet("gatehouse", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := defineWindowFlags(fs)
	workspace, approval, baseURL, model, api := f.workspace, f.approval, f.baseURL, f.model, f.api
	fs.Usage = func() { printHelp(stderr) }
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
	app := NewApp(started, log, store, settings.Flags{BaseURL: *baseURL, Model: *model, API: *api})
	if dataDir, err := session.DefaultDir(); err == nil {
		app.sessions = session.NewStore(dataDir)
		app.cmds = host.New(dataDir, log)
	} else {
		log.Warn("sessions will not be saved", "err", err)
	}
	if *workspace == "" {
		if saved, err := store.Load(); err == nil && saved.LastWorkspace != "" {
			if fi, err := os.Stat(saved.LastWorkspace); err == nil && fi.IsDir() {
				*workspace = saved.LastWorkspace
			}
		}
	}
	if *approval != "" {
		if err := app.useMode(*approval); err != nil {
			fmt.Fprintln(stderr, "gatehouse:", err)
			return 2
		}
	}
	if *workspace != "" {
		if err := app.setWorkspace(*workspace); err != nil {
			fmt.Fprintln(stderr, "gatehouse:", err)
			return 2
		}
	}
	// SIGTERM/SIGINT: end the session's processes, whole groups, then exit.
	stopSignals := proc.HandleSignals(func(sig os.Signal) {
		app.shutdown(context.Background())
		os.Exit(proc.ExitCode(sig))
	})
	defer stopSignals()
	err = wails.Run(&options.App{
		Title:            "Gatehouse",
		Width:            1280,
		Height:           820,
		MinWidth:         720,
		MinHeight:        480,
		AssetServer:      &assetserver.Options{Assets: assets},
		BackgroundColour: &options.RGBA{R: 250, G: 250, B: 250, A: 255},
		OnStartup:        app.startup,
		OnShutdown:       app.shutdown,
		OnBeforeClose:    app.beforeClose,
		Bind:             []any{app, newGitService(app)},
		Linux:            &linux.Options{Icon: appIcon},
	})
	if err != nil {
		fmt.Fprintln(stderr, "gatehouse:", err)
		return 1
	}
	return 0
}

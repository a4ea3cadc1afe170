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

	"gatehouse/internal/acp"
	"gatehouse/internal/cli"
	"gatehouse/internal/proc"
	"gatehouse/internal/session"
	"gatehouse/internal/settings"
)

//go:embed all:frontend/dist
var assets embed.FS

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	started := time.Now()
	if len(args) > 0 {
		switch args[0] {
		case "tool":
			return cli.Tool(args[1:], os.Stdin, stdout, stderr)
		case "exec":
			return cli.ExecMain(args[1:], os.Stdin, stdout, stderr)
		case "acp":
			return acp.Main(args[1:], os.Stdin, stdout, stderr)
		case "version", "--version", "-version":
			fmt.Fprintf(stdout, "gatehouse %s\n", version)
			return 0
		}
	}
	fs := flag.NewFlagSet("gatehouse", flag.ContinueOnError)
	fs.SetOutput(stderr)
	workspace := fs.String("workspace", os.Getenv("GATEHOUSE_WORKSPACE"), "the folder the agent works in")
	approval := fs.String("approval", os.Getenv("GATEHOUSE_APPROVAL"), "approval mode: manual, safe or auto (default: the saved one, else safe)")
	baseURL := fs.String("base-url", "", "OpenAI-compatible API base URL (overrides OPENAI_BASE_URL and the saved one)")
	model := fs.String("model", "", "model name (overrides the saved one)")
	api := fs.String("api", "", "model API: chat (Chat Completions) or responses (overrides GATEHOUSE_API and the saved one)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: gatehouse [--workspace DIR] [--approval MODE] [--base-url URL] [--model NAME] [--api chat|responses]\n       gatehouse exec --workspace DIR --prompt TEXT [--approval MODE] [--json] ...\n       gatehouse tool NAME --workspace DIR [--args JSON]\n       gatehouse --version")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
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
		Bind:             []any{app},
	})
	if err != nil {
		fmt.Fprintln(stderr, "gatehouse:", err)
		return 1
	}
	return 0
}

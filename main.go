// Command gatehouse is a desktop coding agent. With a subcommand it runs
// headless (no display needed); without one it opens the window.
package main

import (
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
		case "version", "--version", "-version":
			fmt.Fprintf(stdout, "gatehouse %s\n", version)
			return 0
		}
	}
	fs := flag.NewFlagSet("gatehouse", flag.ContinueOnError)
	fs.SetOutput(stderr)
	workspace := fs.String("workspace", os.Getenv("GATEHOUSE_WORKSPACE"), "the folder the agent works in")
	approval := fs.String("approval", envOr("GATEHOUSE_APPROVAL", "safe"), "approval mode: manual, safe or auto")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: gatehouse [--workspace DIR] [--approval MODE]\n       gatehouse --version")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	app := NewApp(started, log, "")
	if _, err := app.SetApprovalMode(*approval); err != nil {
		fmt.Fprintln(stderr, "gatehouse:", err)
		return 2
	}
	if *workspace != "" {
		if err := app.setWorkspace(*workspace); err != nil {
			fmt.Fprintln(stderr, "gatehouse:", err)
			return 2
		}
	}
	err := wails.Run(&options.App{
		Title:            "Gatehouse",
		Width:            1280,
		Height:           820,
		MinWidth:         720,
		MinHeight:        480,
		AssetServer:      &assetserver.Options{Assets: assets},
		BackgroundColour: &options.RGBA{R: 250, G: 250, B: 250, A: 255},
		OnStartup:        app.startup,
		OnShutdown:       app.shutdown,
		Bind:             []any{app},
	})
	if err != nil {
		fmt.Fprintln(stderr, "gatehouse:", err)
		return 1
	}
	return 0
}

func envOr(key, fallback string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return fallback
}

package main

import (
	"embed"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"

	"gatehouse/internal/gui"
)

//go:embed all:frontend/dist
var assets embed.FS

// The window's icon: the package's menu icon (build/appicon.png) at 256
// px, the largest a window manager draws. GTK decodes it on the main thread
// before the page loads, and decoding the 1024 px, 16-bit original took
// 20-35 ms of the window's start (main_icon_test.go checks it is that
// image; the command to make it again is there).
//
//go:embed build/windowicon.png
var appIcon []byte

// runWindow opens the window over app (the page's bound service, in
// internal/gui) and returns when it closes.
func runWindow(app *gui.App) error {
	startup, shutdown, beforeClose := gui.Hooks(app)
	return wails.Run(&options.App{
		Title:            "Gatehouse",
		Width:            1280,
		Height:           820,
		MinWidth:         720,
		MinHeight:        480,
		AssetServer:      &assetserver.Options{Assets: assets},
		BackgroundColour: &options.RGBA{R: 250, G: 250, B: 250, A: 255},
		OnStartup:        startup,
		OnShutdown:       shutdown,
		OnBeforeClose:    beforeClose,
		Bind:             gui.Services(app),
		Linux:            &linux.Options{Icon: appIcon},
		// Files dragged in from another application reach the backend as
		// paths (WebKitGTK gives the page only their URIs); see gui's filesDropped.
		DragAndDrop: &options.DragAndDrop{EnableFileDrop: true},
	})
}

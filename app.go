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

// The window's icon, the one the package's menu entry shows.
//
//go:embed build/appicon.png
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

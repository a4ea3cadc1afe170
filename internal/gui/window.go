package gui

import "context"

// Hooks are a's Wails lifecycle callbacks (options.App OnStartup,
// OnShutdown, OnBeforeClose). They are not methods the page may call, so
// they are not exported on the bound App.
func Hooks(a *App) (startup, shutdown func(context.Context), beforeClose func(context.Context) bool) {
	return a.startup, a.shutdown, a.beforeClose
}

// Start applies the window's command line before the window opens: mode
// (this run only; "" keeps the saved one) and the workspace to open (""
// opens none). The tabs open at the last quit are reopened first, each
// session resumed; a tab on workspace is then shown.
func Start(a *App, mode, workspace string) error {
	// Fontconfig loads beside the window's own start, for the page's
	// first question (FontFamilies).
	a.fonts.Warm()
	if mode != "" {
		if err := a.useMode(mode); err != nil {
			return err
		}
	}
	// The tabs open at the last quit come back, then the folder asked for.
	return a.restoreTabs(workspace)
}

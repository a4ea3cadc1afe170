// Package desktop is the only Go code that calls the Wails runtime. Everything
// else talks to the window through these methods, so the backend never depends
// on the UI framework's types and tests can run without a window.
package desktop

import (
	"context"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// Runtime wraps the Wails runtime for one window. The zero value (no context)
// ignores every call, which is what a headless host and tests need.
type Runtime struct {
	ctx context.Context
}

// New binds the runtime to the context Wails passes to OnStartup.
func New(ctx context.Context) *Runtime { return &Runtime{ctx: ctx} }

// Emit sends one event to the page under name.
func (r *Runtime) Emit(name string, data any) {
	if r == nil || r.ctx == nil {
		return
	}
	runtime.EventsEmit(r.ctx, name, data)
}

// OnFileDrop calls dropped with the paths of the files dragged onto the
// window from another application (a file manager), as GTK delivers them
// (the window must enable Wails' file drop). Calls come one drop at a time.
func (r *Runtime) OnFileDrop(dropped func(paths []string)) {
	if r == nil || r.ctx == nil {
		return
	}
	runtime.OnFileDrop(r.ctx, func(_, _ int, paths []string) { dropped(paths) })
}

// ChooseFolder opens the native folder dialog; "" means the user cancelled.
func (r *Runtime) ChooseFolder(title, start string) (string, error) {
	if r == nil || r.ctx == nil {
		return "", nil
	}
	return runtime.OpenDirectoryDialog(r.ctx, runtime.OpenDialogOptions{
		Title:                title,
		DefaultDirectory:     start,
		CanCreateDirectories: true,
	})
}

// SetTitle sets the window title.
func (r *Runtime) SetTitle(title string) {
	if r == nil || r.ctx == nil {
		return
	}
	runtime.WindowSetTitle(r.ctx, title)
}

// Quit closes the application.
func (r *Runtime) Quit() {
	if r == nil || r.ctx == nil {
		return
	}
	runtime.Quit(r.ctx)
}

// Confirm asks a yes/no question in a native dialog; it reports whether the
// user chose yes. Without a window it answers yes.
func (r *Runtime) Confirm(title, message, yes, no string) bool {
	if r == nil || r.ctx == nil {
		return true
	}
	answer, err := runtime.MessageDialog(r.ctx, runtime.MessageDialogOptions{
		Type: runtime.QuestionDialog, Title: title, Message: message,
		Buttons: []string{yes, no}, DefaultButton: no, CancelButton: no,
	})
	return err == nil && answer == yes
}

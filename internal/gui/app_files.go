package gui

import (
	"errors"
	"sync/atomic"

	"gatehouse/internal/browse"
	"gatehouse/internal/protocol"
	"gatehouse/internal/watch"
	"gatehouse/internal/workspace"
)

// maxFsPaths caps the paths one fs.changed event lists; a larger batch is
// sent truncated and the UI reloads what it shows.
const maxFsPaths = 2000

// watchWorkspace stops the watch of the previous workspace, if no other
// tab uses it, and watches ws: with the watch of a tab on the same folder
// when there is one (one tracker, so each session's dialogs see the other's
// changes), else a new one. A failure is logged: the app works on without
// live updates. Only the shown tab's watch reaches the page.
func (a *App) watchWorkspace(ws *workspace.Workspace) {
	a.stopWatch()
	if b := a.watchOf(ws.Root()); b != nil {
		a.files.Store(b)
		return
	}
	var self atomic.Pointer[browse.Workspace]
	shown := func() bool { return a.files.Load() == self.Load() }
	b, err := browse.Open(ws, watch.LiveOptions{
		Log: a.log,
		OnBatch: func(batch []watch.Change) {
			a.mentionIndex.forget()
			if shown() {
				a.bus.Publish(fsChangedEvent(batch))
			}
		},
		OnDegraded: func(reason string) {
			a.log.Warn("watch: degraded", "reason", reason)
			if shown() {
				a.bus.Publish(protocol.Event{Type: protocol.WatchDegraded, Payload: protocol.WatchDegradedPayload{Reason: reason}})
			}
		},
	})
	if err != nil {
		a.log.Warn("watch: cannot watch workspace", "err", err)
		return
	}
	self.Store(b)
	a.files.Store(b)
}

// watchOf is the watch of a tab not shown on folder root, nil when none.
func (a *App) watchOf(root string) *browse.Workspace {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, t := range a.tabs {
		if t != a.cur && t.dir == root && t.files != nil {
			return t.files
		}
	}
	return nil
}

// resetChanges starts the record of changed files over when a session ends
// and another opens: the tree's badges and the file viewer's diffs are of
// the session shown (UX.md). The empty fs.changed tells the page to ask for
// the badges again. A record another tab shares is kept.
func (a *App) resetChanges() {
	if b := a.files.Load(); b != nil && !a.watchShared(b) {
		b.Reset()
		a.bus.Publish(fsChangedEvent(nil))
	}
}

// stopWatch releases the shown tab's watch: stopped unless another tab
// uses it.
func (a *App) stopWatch() {
	a.releaseWatch(a.files.Swap(nil))
}

// releaseWatch stops b (nil: nothing) unless a tab still uses it.
func (a *App) releaseWatch(b *browse.Workspace) {
	if b != nil && !a.watchShared(b) && a.files.Load() != b {
		b.Stop()
	}
}

// watchShared reports whether a tab not shown uses b.
func (a *App) watchShared(b *browse.Workspace) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, t := range a.tabs {
		if t != a.cur && t.files == b {
			return true
		}
	}
	return false
}

func fsChangedEvent(batch []watch.Change) protocol.Event {
	return protocol.Event{Type: protocol.FsChanged, Payload: watch.Payload(batch, maxFsPaths)}
}

func (a *App) openFiles() (*browse.Workspace, error) {
	b := a.files.Load()
	if b == nil {
		return nil, errors.New("choose a workspace folder first")
	}
	return b, nil
}

// DirEntry is one entry of a folder in the file tree.
type DirEntry struct {
	Name  string `json:"name"`
	Path  string `json:"path"` // workspace-relative, slash separated
	IsDir bool   `json:"isDir"`
	Size  int64  `json:"size"`
	// Ignored entries (.gitignore, node_modules, …) are shown dimmed and not
	// watched.
	Ignored bool `json:"ignored"`
}

// ListDir lists a folder of the workspace ("" or "." for the root): folders
// first, then files, by name. .git is left out.
func (a *App) ListDir(path string) ([]DirEntry, error) {
	b, err := a.openFiles()
	if err != nil {
		return nil, err
	}
	ents, err := b.ListDir(path)
	if err != nil {
		return nil, err
	}
	out := make([]DirEntry, len(ents))
	for i, e := range ents {
		out[i] = DirEntry(e)
	}
	return out, nil
}

// FileView is a file as the read-only viewer shows it.
type FileView struct {
	Path    string `json:"path"`
	Content string `json:"content"` // empty for binary files
	Size    int64  `json:"size"`
	Binary  bool   `json:"binary"`
	// Truncated: the file is larger than what Content holds.
	Truncated bool `json:"truncated"`
}

// ReadFileForView reads a workspace file for the viewer (the first MiB).
func (a *App) ReadFileForView(path string) (FileView, error) {
	b, err := a.openFiles()
	if err != nil {
		return FileView{}, err
	}
	v, err := b.Read(path)
	return FileView(v), err
}

// ChangedFiles lists the files changed since the workspace was opened, with
// their A / M / D badge and who changed them.
func (a *App) ChangedFiles() []watch.ChangedFile {
	b := a.files.Load()
	if b == nil {
		return []watch.ChangedFile{}
	}
	return b.Changed()
}

// FileDiffView is a changed file's diff against its content before the
// session touched it.
type FileDiffView struct {
	Change watch.ChangedFile `json:"change"`
	// Diff is a unified diff; empty when the contents are equal or unknown.
	Diff string `json:"diff"`
	// Note explains a missing diff in words ("binary file", …).
	Note string `json:"note,omitempty"`
}

// FileDiff returns the diff of a changed file (an error for one that did not
// change).
func (a *App) FileDiff(path string) (FileDiffView, error) {
	b, err := a.openFiles()
	if err != nil {
		return FileDiffView{}, err
	}
	d, err := b.Diff(path)
	return FileDiffView(d), err
}

// WatchStatus says whether the workspace is watched live everywhere.
type WatchStatus struct {
	Watching bool   `json:"watching"`
	Degraded bool   `json:"degraded"`
	Reason   string `json:"reason,omitempty"`
}

// WatchState returns the watcher's status, for a page that (re)loads after
// a watch.degraded event went by.
func (a *App) WatchState() WatchStatus {
	b := a.files.Load()
	if b == nil {
		return WatchStatus{}
	}
	st := b.Status()
	return WatchStatus{Watching: true, Degraded: st.Degraded, Reason: st.Reason}
}

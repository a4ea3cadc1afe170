package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"gatehouse/internal/patch"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
	"gatehouse/internal/watch"
	"gatehouse/internal/workspace"
)

// maxFsPaths caps the paths one fs.changed event lists; a larger batch is
// sent truncated and the UI reloads what it shows.
const maxFsPaths = 2000

// viewMax caps what ReadFileForView and FileDiff read of a file.
const viewMax = 1 << 20

// filesWatch is the open workspace's watcher and the tracker of what changed
// in it. It lives from the workspace's opening to its switch or the app's end.
type filesWatch struct {
	ws *workspace.Workspace
	w  *watch.Watcher
	tr *watch.Tracker

	mu     sync.Mutex
	reason string // why watching is degraded, "" when it is not
}

// watchWorkspace stops the watcher of the previous workspace, if any, and
// watches root. A failure is logged: the app works on without live updates.
func (a *App) watchWorkspace(root string) {
	a.stopWatch()
	ws, err := workspace.New(root, workspace.Options{})
	if err != nil {
		a.log.Warn("watch: cannot open workspace", "err", err)
		return
	}
	fw := &filesWatch{ws: ws, tr: watch.NewTracker(ws.Root(), watch.TrackerOptions{})}
	fw.w, err = watch.New(ws.Root(), watch.Options{
		Log:    a.log,
		OnFile: fw.tr.Remember,
		OnDegraded: func(reason string) {
			fw.mu.Lock()
			fw.reason = reason
			fw.mu.Unlock()
			a.log.Warn("watch: degraded", "reason", reason)
			a.bus.Publish(protocol.Event{Type: protocol.WatchDegraded, Payload: protocol.WatchDegradedPayload{Reason: reason}})
		},
	})
	if err != nil {
		a.log.Warn("watch: cannot watch workspace", "err", err)
		return
	}
	fw.w.OnBatch(fw.tr.Observe) // first: the UI asks for badges on the event
	fw.w.OnBatch(func(batch []watch.Change) { a.bus.Publish(fsChangedEvent(batch)) })
	fw.w.Start()
	a.files.Store(fw)
}

// resetChanges starts the record of changed files over when a session ends
// and another opens: the tree's badges and the file viewer's diffs are of
// the session shown (UX.md). The empty fs.changed tells the page to ask for
// the badges again.
func (a *App) resetChanges() {
	if fw := a.files.Load(); fw != nil {
		fw.tr.Reset()
		a.bus.Publish(fsChangedEvent(nil))
	}
}

// stopWatch releases every watch of the open workspace.
func (a *App) stopWatch() {
	if fw := a.files.Swap(nil); fw != nil {
		fw.w.Stop()
	}
}

func fsChangedEvent(batch []watch.Change) protocol.Event {
	return protocol.Event{Type: protocol.FsChanged, Payload: watch.Payload(batch, maxFsPaths)}
}

// recordFiles is the session's middleware that tells the tracker what the
// agent's tools do (see watch.Tracker.Middleware); it passes calls through
// while no workspace is watched.
func (a *App) recordFiles(ws *workspace.Workspace) tools.Middleware {
	return func(t tools.Tool, next tools.Handler) tools.Handler {
		return func(ctx context.Context, call tools.Call) (tools.Result, error) {
			fw := a.files.Load()
			if fw == nil || fw.ws.Root() != ws.Root() {
				return next(ctx, call)
			}
			return fw.tr.Middleware(ws)(t, next)(ctx, call)
		}
	}
}

// fileNotes is the agent's Config.Notes: files it read that changed outside.
func (a *App) fileNotes() []string {
	if fw := a.files.Load(); fw != nil {
		return fw.tr.Notes()
	}
	return nil
}

func (a *App) openFiles() (*filesWatch, error) {
	fw := a.files.Load()
	if fw == nil {
		return nil, errors.New("choose a workspace folder first")
	}
	return fw, nil
}

// resolveView resolves a path of the tree (workspace-relative) for reading.
func (fw *filesWatch) resolveView(path string) (abs, rel string, err error) {
	if path == "" {
		path = "."
	}
	abs, err = fw.ws.Resolve(path, workspace.Read)
	if err != nil {
		return "", "", err
	}
	return abs, fw.ws.Rel(abs), nil
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
	fw, err := a.openFiles()
	if err != nil {
		return nil, err
	}
	abs, rel, err := fw.resolveView(path)
	if err != nil {
		return nil, err
	}
	ents, err := os.ReadDir(abs)
	if err != nil {
		return nil, fmt.Errorf("cannot list %s: %w", rel, err)
	}
	out := make([]DirEntry, 0, len(ents))
	for _, e := range ents {
		if e.Name() == ".git" {
			continue
		}
		p := e.Name()
		if rel != "." {
			p = rel + "/" + p
		}
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			if fi, err := os.Stat(filepath.Join(abs, e.Name())); err == nil {
				isDir = fi.IsDir()
			}
		}
		d := DirEntry{Name: e.Name(), Path: p, IsDir: isDir, Ignored: fw.w.Ignorer().Ignored(p, isDir)}
		if info, err := e.Info(); err == nil && !isDir {
			d.Size = info.Size()
		}
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].IsDir != out[j].IsDir {
			return out[i].IsDir
		}
		return strings.ToLower(out[i].Name) < strings.ToLower(out[j].Name)
	})
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
	fw, err := a.openFiles()
	if err != nil {
		return FileView{}, err
	}
	abs, rel, err := fw.resolveView(path)
	if err != nil {
		return FileView{}, err
	}
	b, size, err := readHead(abs, viewMax)
	if err != nil {
		return FileView{}, err
	}
	v := FileView{Path: rel, Size: size, Truncated: size > int64(len(b))}
	if isBinary(b) {
		v.Binary = true
		return v, nil
	}
	v.Content = string(b)
	return v, nil
}

func readHead(abs string, max int) ([]byte, int64, error) {
	f, err := os.Open(abs)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	if fi.IsDir() {
		return nil, 0, fmt.Errorf("%s is a folder", filepath.Base(abs))
	}
	b, err := io.ReadAll(io.LimitReader(f, int64(max)))
	if err != nil {
		return nil, 0, err
	}
	for len(b) > 0 && int64(len(b)) < fi.Size() && !utf8.Valid(b) { // cut on a character
		b = b[:len(b)-1]
	}
	return b, fi.Size(), nil
}

func isBinary(b []byte) bool { return bytes.IndexByte(b, 0) >= 0 || !utf8.Valid(b) }

// ChangedFiles lists the files changed since the workspace was opened, with
// their A / M / D badge and who changed them.
func (a *App) ChangedFiles() []watch.ChangedFile {
	fw := a.files.Load()
	if fw == nil {
		return []watch.ChangedFile{}
	}
	return fw.tr.Changed()
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
	fw, err := a.openFiles()
	if err != nil {
		return FileDiffView{}, err
	}
	rel := filepath.ToSlash(filepath.Clean(path))
	c, base, known, ok := fw.tr.Baseline(rel)
	if !ok {
		return FileDiffView{}, fmt.Errorf("%s has not changed in this session", rel)
	}
	v := FileDiffView{Change: c}
	if !known {
		v.Note = "The content from before the session was not kept (the file was large or was never read before it changed), so no diff can be shown."
		return v, nil
	}
	var now []byte
	if c.Status != "deleted" {
		abs, _, err := fw.resolveView(rel)
		if err != nil {
			return FileDiffView{}, err
		}
		if now, _, err = readHead(abs, viewMax); err != nil && !os.IsNotExist(err) {
			return FileDiffView{}, err
		}
	}
	if isBinary(base) || isBinary(now) {
		v.Note = "Binary file: no text diff."
		return v, nil
	}
	v.Diff, _, _ = patch.UnifiedDiff(rel, rel, string(base), string(now), c.Status == "added", c.Status == "deleted")
	return v, nil
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
	fw := a.files.Load()
	if fw == nil {
		return WatchStatus{}
	}
	fw.mu.Lock()
	defer fw.mu.Unlock()
	return WatchStatus{Watching: true, Degraded: fw.reason != "", Reason: fw.reason}
}

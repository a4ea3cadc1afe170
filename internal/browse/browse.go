// Package browse is the workspace as the window shows it: the folder tree,
// the read-only file viewer, the files changed in the session and their
// diffs against their content from before the session touched them. It owns
// the workspace's live watch (watch.Live), which the window's sessions share
// through internal/runtime.
package browse

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"gatehouse/internal/patch"
	"gatehouse/internal/sniff"
	"gatehouse/internal/watch"
	"gatehouse/internal/workspace"
)

// ViewMax caps what Read and Diff read of a file.
const ViewMax = 1 << 20

// Workspace is an open workspace with its live watch. Safe for concurrent
// use.
type Workspace struct {
	ws   *workspace.Workspace
	live *watch.Live
}

// Open starts watching ws. o's callbacks hear the batches (after the
// tracker) and why watching degraded.
func Open(ws *workspace.Workspace, o watch.LiveOptions) (*Workspace, error) {
	live, err := watch.OpenLive(ws.Root(), o)
	if err != nil {
		return nil, err
	}
	return &Workspace{ws: ws, live: live}, nil
}

// Live is the watch and tracker, for the sessions (runtime.Options.Files).
func (b *Workspace) Live() *watch.Live { return b.live }

// Stop stops watching.
func (b *Workspace) Stop() { b.live.Stop() }

// Reset starts the record of changed files over (a new session is shown).
func (b *Workspace) Reset() { b.live.T.Reset() }

// resolve resolves a path of the tree (workspace-relative) for reading.
func (b *Workspace) resolve(path string) (abs, rel string, err error) {
	if path == "" {
		path = "."
	}
	abs, err = b.ws.Resolve(path, workspace.Read)
	if err != nil {
		return "", "", err
	}
	return abs, b.ws.Rel(abs), nil
}

// DirEntry is one entry of a folder in the file tree.
type DirEntry struct {
	Name  string
	Path  string // workspace-relative, slash separated
	IsDir bool
	Size  int64
	// Ignored entries (.gitignore, node_modules, …) are shown dimmed and
	// not watched.
	Ignored bool
}

// ListDir lists a folder of the workspace ("" or "." for the root): folders
// first, then files, by name. .git is left out.
func (b *Workspace) ListDir(path string) ([]DirEntry, error) {
	abs, rel, err := b.resolve(path)
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
		d := DirEntry{Name: e.Name(), Path: p, IsDir: isDir, Ignored: b.live.W.Ignorer().Ignored(p, isDir)}
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
	Path    string
	Content string // empty for binary files
	Size    int64
	Binary  bool
	// Truncated: the file is larger than what Content holds.
	Truncated bool
}

// Read reads a workspace file for the viewer (the first ViewMax bytes).
func (b *Workspace) Read(path string) (FileView, error) {
	abs, rel, err := b.resolve(path)
	if err != nil {
		return FileView{}, err
	}
	data, size, err := readHead(abs, ViewMax)
	if err != nil {
		return FileView{}, err
	}
	v := FileView{Path: rel, Size: size, Truncated: size > int64(len(data))}
	if !sniff.Text(data) {
		v.Binary = true
		return v, nil
	}
	v.Content = string(data)
	return v, nil
}

func readHead(abs string, max int) ([]byte, int64, error) {
	f, _, err := workspace.OpenRegular(abs)
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
	if int64(len(b)) < fi.Size() {
		b = cutRune(b)
	}
	return b, fi.Size(), nil
}

// cutRune drops the incomplete character a cut at the end of b left (at
// most utf8.UTFMax-1 bytes), and nothing else: whether the rest is text is
// for sniff to say (a binary file is not cut down to nothing).
func cutRune(b []byte) []byte {
	for i := 1; i < utf8.UTFMax && i <= len(b); i++ {
		if utf8.RuneStart(b[len(b)-i]) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			break
		}
	}
	return b
}

// Changed lists the files changed since the record started, with their
// A / M / D badge and who changed them.
func (b *Workspace) Changed() []watch.ChangedFile { return b.live.T.Changed() }

// FileDiff is a changed file's diff against its content before the session
// touched it.
type FileDiff struct {
	Change watch.ChangedFile
	// Diff is a unified diff; empty when the contents are equal or unknown.
	Diff string
	// Note explains a missing diff in words ("binary file", …).
	Note string
}

// Diff returns the diff of a changed file (an error for one that did not
// change).
func (b *Workspace) Diff(path string) (FileDiff, error) {
	rel := filepath.ToSlash(filepath.Clean(path))
	c, base, known, ok := b.live.T.Baseline(rel)
	if !ok {
		return FileDiff{}, fmt.Errorf("%s has not changed in this session", rel)
	}
	v := FileDiff{Change: c}
	if !known {
		v.Note = "The content from before the session was not kept (the file was large or was never read before it changed), so no diff can be shown."
		return v, nil
	}
	var now []byte
	if c.Status != "deleted" {
		abs, _, err := b.resolve(rel)
		if err != nil {
			return FileDiff{}, err
		}
		if now, _, err = readHead(abs, ViewMax); err != nil && !os.IsNotExist(err) {
			return FileDiff{}, err
		}
	}
	if !sniff.Text(base) || !sniff.Text(now) {
		v.Note = "Binary file: no text diff."
		return v, nil
	}
	v.Diff, _, _ = patch.UnifiedDiff(rel, rel, string(base), string(now), c.Status == "added", c.Status == "deleted")
	return v, nil
}

// Status says whether the workspace is watched live everywhere.
type Status struct {
	Degraded bool
	Reason   string
}

// Status returns the watch's status.
func (b *Workspace) Status() Status {
	r := b.live.Degraded()
	return Status{Degraded: r != "", Reason: r}
}

package watch

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	gitignore "github.com/sabhiram/go-gitignore"

	"gatehouse/internal/workspace"
)

// BuiltinIgnored are folder and file names never watched, wherever they are:
// version control internals, dependency folders and build outputs, which
// change by the thousand and are not what a reviewer reads.
var BuiltinIgnored = []string{
	".git", ".hg", ".svn", "node_modules", "dist", "build", "target",
	".next", ".nuxt", ".svelte-kit", ".turbo", ".parcel-cache",
	"__pycache__", ".venv", ".tox", ".mypy_cache", ".pytest_cache", ".gradle",
}

// Ignorer decides which workspace paths are not watched: the built-in names
// and what .gitignore files say (the root one and nested ones, each applying
// below its own folder). It is safe for concurrent use.
type Ignorer struct {
	root  string
	names map[string]bool

	mu    sync.RWMutex
	rules map[string]*gitignore.GitIgnore // folder (rel, "" root) -> its .gitignore
}

// maxIgnoreFile caps a .gitignore read.
const maxIgnoreFile = 1 << 20

// NewIgnorer returns the ignorer of root, with the root .gitignore loaded;
// nested ones are loaded by Load as the folders are walked.
func NewIgnorer(root string, names []string) *Ignorer {
	ig := &Ignorer{root: root, names: map[string]bool{}, rules: map[string]*gitignore.GitIgnore{}}
	for _, n := range names {
		ig.names[n] = true
	}
	ig.Load("")
	return ig
}

// Load (re)reads the .gitignore of folder dir (workspace-relative, slash
// separated, "" for the root); a missing file removes its rules.
func (ig *Ignorer) Load(dir string) {
	// Through the boundary: a .gitignore linked out of the workspace, or a
	// FIFO or device, is not read.
	var gi *gitignore.GitIgnore
	b, _, err := workspace.ReadInside(ig.root, filepath.Join(filepath.FromSlash(dir), ".gitignore"), maxIgnoreFile)
	if err == nil {
		gi = gitignore.CompileIgnoreLines(strings.Split(string(b), "\n")...)
	}
	ig.mu.Lock()
	defer ig.mu.Unlock()
	if err != nil {
		delete(ig.rules, dir)
		return
	}
	ig.rules[dir] = gi
}

// Ignored reports whether rel (workspace-relative, slash separated) is
// ignored. Only rel's own name is checked against the built-in names: its
// folders are assumed not ignored (the watcher never descends into ignored
// folders). isDir matters for patterns ending in "/".
func (ig *Ignorer) Ignored(rel string, isDir bool) bool {
	if rel == "" || rel == "." {
		return false
	}
	if ig.names[path.Base(rel)] {
		return true
	}
	ig.mu.RLock()
	defer ig.mu.RUnlock()
	if len(ig.rules) == 0 {
		return false
	}
	// Each .gitignore applies to paths below its folder, relative to it.
	dir := rel
	for {
		i := strings.LastIndexByte(dir, '/')
		if i < 0 {
			dir = ""
		} else {
			dir = dir[:i]
		}
		if gi := ig.rules[dir]; gi != nil {
			sub := rel
			if dir != "" {
				sub = rel[len(dir)+1:]
			}
			if gi.MatchesPath(sub) || isDir && gi.MatchesPath(sub+"/") {
				return true
			}
		}
		if dir == "" {
			return false
		}
	}
}

// IgnoredPath is Ignored for a path whose kind is not known: it looks at the
// disk only when a folder-only pattern could match.
func (ig *Ignorer) IgnoredPath(rel string) bool {
	if ig.Ignored(rel, false) {
		return true
	}
	if !ig.Ignored(rel, true) {
		return false
	}
	fi, err := os.Lstat(filepath.Join(ig.root, filepath.FromSlash(rel)))
	return err == nil && fi.IsDir()
}

package files

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	ignore "github.com/sabhiram/go-gitignore"

	"gatehouse/internal/tools"
	"gatehouse/internal/workspace"
)

// errStop ends a walk early (a result cap was reached).
var errStop = errors.New("stop walking")

// entry is one thing a walk visits.
type entry struct {
	abs  string // on disk; for a symlink, the link itself
	rel  string // as shown to the model
	dir  bool
	link bool
	size int64
}

type ignoreFile struct {
	base string // folder holding the .gitignore
	gi   *ignore.GitIgnore
}

// walker visits a folder tree inside the boundary: it skips .git, what
// .gitignore files ignore, protected places, and does not follow symlinked
// folders (a symlink is visited as itself).
type walker struct {
	ws       *workspace.Workspace
	ctx      context.Context
	maxDepth int // 1: only the folder's own entries; <= 0: no limit
	// hidden counts the entries left out because the user's policy
	// denies reading them (a symlink to such a file included).
	hidden int
	denied func(abs string, access workspace.Access) string // the policy as the walk started
	// noSize: the caller does not read entry.size, so files are not
	// stat'ed for it.
	noSize bool
	// batch resolves the walk's folders and .gitignore files, each folder
	// on the way up looked at once per walk.
	batch *workspace.Batch
}

// resolve is the boundary's Resolve for reading, through the walk's batch.
func (w *walker) resolve(abs string) (string, error) {
	if w.batch == nil {
		w.batch = w.ws.Batch()
	}
	return w.batch.Resolve(abs, workspace.Read)
}

// deniedEntry reports whether the user's policy denies reading the entry
// at abs: itself, or for a symlink, what it resolves to.
func (w *walker) deniedEntry(abs string, link bool) bool {
	if w.denied == nil {
		w.denied = w.ws.DenyNow()
	}
	if w.denied(abs, workspace.Read) != "" {
		return true
	}
	if !link {
		return false
	}
	_, err := w.resolve(abs)
	var we *workspace.Error
	return errors.As(err, &we) && we.Code == workspace.CodeDenied
}

// hiddenNote says how many entries the user's policy hid ("" for none),
// for the result the model reads: a count, never a name.
// okHidden is tools.OK(v) carrying the count of entries the user's
// policy hid, for the audit log.
func okHidden(v any, hidden int) (tools.Result, error) {
	r, err := tools.OK(v)
	r.HiddenByPolicy = hidden
	return r, err
}

func hiddenNote(n int) string {
	switch n {
	case 0:
		return ""
	case 1:
		return "1 entry was hidden by the user's policy"
	}
	return fmt.Sprintf("%d entries were hidden by the user's policy", n)
}

// walk calls fn for each entry below the resolved folder start, folders
// before what they hold, names sorted.
func (w *walker) walk(start string, fn func(e entry) error) error {
	ignores := w.parentIgnores(start)
	err := w.dir(start, 1, ignores, fn)
	if errors.Is(err, errStop) {
		return nil
	}
	return err
}

// parentIgnores loads the .gitignore files from the root holding start down
// to start itself.
func (w *walker) parentIgnores(start string) []ignoreFile {
	root := w.ws.Root()
	if !within(root, start) {
		for _, ro := range w.ws.ReadOnlyRoots() {
			if within(ro, start) {
				root = ro
			}
		}
	}
	var out []ignoreFile
	rel, err := filepath.Rel(root, start)
	if err != nil {
		return nil
	}
	if rel == "." {
		return nil // start's own .gitignore is read by dir
	}
	d := root
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if gi, err := w.compileIgnore(filepath.Join(d, ".gitignore")); err == nil {
			out = append(out, ignoreFile{base: d, gi: gi})
		}
		d = filepath.Join(d, part)
	}
	return out
}

func within(base, p string) bool {
	return p == base || strings.HasPrefix(p, base+string(filepath.Separator))
}

func (w *walker) ignored(ignores []ignoreFile, abs string, dir bool) bool {
	for _, f := range ignores {
		rel, err := filepath.Rel(f.base, abs)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		rel = filepath.ToSlash(rel)
		if f.gi.MatchesPath(rel) || dir && f.gi.MatchesPath(rel+"/") {
			return true
		}
	}
	return false
}

func (w *walker) dir(d string, depth int, ignores []ignoreFile, fn func(e entry) error) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	if gi, err := w.compileIgnore(filepath.Join(d, ".gitignore")); err == nil {
		ignores = append(ignores[:len(ignores):len(ignores)], ignoreFile{base: d, gi: gi})
	}
	ents, err := os.ReadDir(d)
	if err != nil {
		return err
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	for _, de := range ents {
		name := de.Name()
		abs := filepath.Join(d, name)
		if name == ".git" || w.ignored(ignores, abs, de.IsDir()) {
			continue
		}
		if de.Type()&(fs.ModeNamedPipe|fs.ModeSocket|fs.ModeDevice|fs.ModeIrregular) != 0 {
			continue // FIFOs, sockets and devices hold no text to find
		}
		e := entry{abs: abs, rel: w.ws.Rel(abs), dir: de.IsDir(), link: de.Type()&fs.ModeSymlink != 0}
		if w.deniedEntry(abs, e.link) {
			w.hidden++
			continue
		}
		if e.dir || isSecretName(name) {
			// A folder (or a file named like a protected folder) is shown
			// only when the boundary would let a read reach it.
			if _, err := w.resolve(abs); err != nil {
				continue
			}
		}
		if !e.dir && !e.link && !w.noSize {
			if fi, err := de.Info(); err == nil {
				e.size = fi.Size()
			}
		}
		if err := fn(e); err != nil {
			return err
		}
		if e.dir && (w.maxDepth <= 0 || depth < w.maxDepth) {
			if err := w.dir(abs, depth+1, ignores, fn); err != nil {
				return err
			}
		}
	}
	return nil
}

// maxIgnoreFile caps a .gitignore read.
const maxIgnoreFile = 1 << 20

// compileIgnore reads the .gitignore at abs through the boundary: a link
// out of the workspace, a FIFO or a device is not read.
func (w *walker) compileIgnore(abs string) (*ignore.GitIgnore, error) {
	res, err := w.resolve(abs)
	if err != nil {
		return nil, err
	}
	b, _, err := workspace.ReadRegular(res, maxIgnoreFile)
	if err != nil {
		return nil, err
	}
	return ignore.CompileIgnoreLines(strings.Split(string(b), "\n")...), nil
}

func isSecretName(name string) bool {
	for _, s := range []string{".ssh", ".aws", ".gnupg"} {
		if strings.EqualFold(name, s) {
			return true
		}
	}
	return false
}

// matchGlob reports whether the slash path p matches pattern, where "*",
// "?" and "[...]" match within one path segment and a "**" segment matches
// any number of segments.
func matchGlob(pattern, p string) bool {
	return matchSegs(strings.Split(pattern, "/"), strings.Split(p, "/"))
}

func matchSegs(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for len(pat) > 1 && pat[1] == "**" {
				pat = pat[1:]
			}
			if len(pat) == 1 {
				return true
			}
			for i := 0; i <= len(segs); i++ {
				if matchSegs(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, err := path.Match(pat[0], segs[0]); err != nil || !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// Package workspace is the boundary of every tool that touches a path: one
// writable workspace root, optional extra read-only roots, and the protected
// places no call may reach whatever the approval mode (see DESIGN.md).
//
// Resolve is the only way a path the model gave becomes a path on disk. It
// follows symlinks on every component, also for paths whose tail does not
// exist yet, so a symlinked folder deep in the path cannot carry a write out
// of the workspace.
//
// Resolution and the later open are two steps: a process racing to swap a
// component for a symlink in between is not defended against (an OS sandbox
// comes later, see DESIGN.md).
package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Access is what a call wants to do with a path.
type Access int

const (
	// Read is reading a file or listing a folder.
	Read Access = iota
	// Write is creating, changing, moving or deleting.
	Write
)

func (a Access) String() string {
	if a == Write {
		return "write"
	}
	return "read"
}

// Options configures a Workspace beyond its root.
type Options struct {
	// ReadOnlyRoots are folders that may be read, never written. A
	// read-only root inside the workspace root makes that part read-only.
	ReadOnlyRoots []string
	// ProtectedDirs are refused for reads and writes wherever they are.
	// Nil means GatehouseDirs(); tests inject their own.
	ProtectedDirs []string
}

// Workspace is the set of roots a session may reach. Its root and fixed
// read-only roots never change; the user's deny predicate (SetDeny) and,
// on a workspace made by WithLiveReadOnly, the live read-only roots may.
// It is safe for concurrent use.
type Workspace struct {
	root      string      // absolute, symlinks resolved
	readOnly  []string    // absolute, symlinks resolved
	protected []string    // absolute, symlinks resolved where they exist
	deny      *denyHolder // shared by the copies WithReadOnly makes
	live      *liveRoots  // nil: none; shared by the copies WithReadOnly makes
}

// New returns the workspace rooted at root, which must be an existing folder.
func New(root string, opts Options) (*Workspace, error) {
	r, err := realDir(root)
	if err != nil {
		return nil, fmt.Errorf("workspace root: %w", err)
	}
	w := &Workspace{root: r, deny: &denyHolder{}}
	for _, ro := range opts.ReadOnlyRoots {
		d, err := realDir(ro)
		if err != nil {
			return nil, fmt.Errorf("read-only root: %w", err)
		}
		w.readOnly = append(w.readOnly, d)
	}
	prot := opts.ProtectedDirs
	if prot == nil {
		prot = GatehouseDirs()
	}
	for _, p := range prot {
		if p == "" {
			continue
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, fmt.Errorf("protected dir: %w", err)
		}
		if res, _, err := resolveReal(abs, nil); err == nil {
			abs = res
		}
		w.protected = append(w.protected, abs)
	}
	return w, nil
}

// GatehouseDirs returns Gatehouse's own config and data folders:
// os.UserConfigDir()/gatehouse and $XDG_DATA_HOME/gatehouse (default
// ~/.local/share/gatehouse). Folders that cannot be determined are omitted.
func GatehouseDirs() []string {
	var dirs []string
	if c, err := os.UserConfigDir(); err == nil {
		dirs = append(dirs, filepath.Join(c, "gatehouse"))
	}
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		dirs = append(dirs, filepath.Join(d, "gatehouse"))
	} else if h, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(h, ".local", "share", "gatehouse"))
	}
	return dirs
}

func realDir(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	r, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(r)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s is not a folder", p)
	}
	return r, nil
}

// WithReadOnly returns a workspace like w with roots added to its
// read-only roots (a session's skill folders); w is unchanged.
func (w *Workspace) WithReadOnly(roots ...string) (*Workspace, error) {
	c := *w
	n := &c
	n.readOnly = slices.Clone(w.readOnly)
	for _, ro := range roots {
		d, err := realDir(ro)
		if err != nil {
			return nil, fmt.Errorf("read-only root: %w", err)
		}
		if !slices.Contains(n.readOnly, d) {
			n.readOnly = append(n.readOnly, d)
		}
	}
	return n, nil
}

// WithRoot returns a workspace rooted at root (an existing folder) that
// keeps w's read-only roots, protected folders and deny predicate: the
// boundary of a session working in another checkout of w's repository (a
// teammate in its own worktree). w's root is not in it.
func (w *Workspace) WithRoot(root string) (*Workspace, error) {
	r, err := realDir(root)
	if err != nil {
		return nil, fmt.Errorf("workspace root: %w", err)
	}
	c := *w
	n := &c
	n.root = r
	n.readOnly = slices.Clone(w.readOnly)
	n.protected = slices.Clone(w.protected)
	return n, nil
}

// Root returns the workspace root, absolute with symlinks resolved.
func (w *Workspace) Root() string { return w.root }

// ReadOnlyRoots returns the read-only roots in force now (the fixed ones,
// then the live ones), absolute with symlinks resolved.
func (w *Workspace) ReadOnlyRoots() []string { return append([]string(nil), w.allReadOnly()...) }

// Rel returns how a resolved path is shown to the model: relative to the
// workspace root (with forward slashes) when inside it, absolute otherwise.
func (w *Workspace) Rel(resolved string) string {
	if resolved == w.root {
		return "."
	}
	if r, ok := under(w.root, resolved); ok && !w.inReadOnly(resolved) {
		return filepath.ToSlash(r)
	}
	return resolved
}

// Resolve turns a path the model gave into an absolute path on disk, or
// refuses it with an *Error naming that path and why.
//
// Relative paths resolve against the workspace root; absolute paths must lie
// inside a root. Symlinks are followed on every component; for a tail that
// does not exist yet the deepest existing ancestor is resolved and the rest
// re-appended. The result must lie inside a root (writes: inside the
// workspace root and outside every read-only root) and outside the protected
// places for the access asked.
func (w *Workspace) Resolve(path string, access Access) (string, error) {
	return w.resolve(path, access, nil, true)
}

func (w *Workspace) resolve(path string, access Access, dirs *dirCache, policy bool) (string, error) {
	if strings.TrimSpace(path) == "" {
		return "", &Error{Path: path, Code: CodeInvalid, Reason: "the path is empty"}
	}
	if strings.ContainsRune(path, 0) {
		return "", &Error{Path: path, Code: CodeInvalid, Reason: "the path contains a NUL byte"}
	}
	abs := path
	if !filepath.IsAbs(path) {
		clean := filepath.Clean(path)
		if clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
			return "", &Error{Path: path, Code: CodeOutside, Reason: "'..' leaves the workspace root"}
		}
		// Not filepath.Join: cleaning would drop "link/.." before the
		// symlink is followed.
		abs = w.root + string(filepath.Separator) + path
	}
	// The path as given counts too: through a symlink named .git, or to a
	// .git that is itself a symlink, the resolved path says nothing of git.
	if access == Write {
		lex := abs
		if rest, ok := under(w.root, filepath.Clean(abs)); ok {
			lex = rest
		}
		if InGit(lex) {
			return "", &Error{Path: path, Code: CodeProtected, Reason: gitReason}
		}
		if InGatehouse(lex) {
			return "", &Error{Path: path, Code: CodeProtected, Reason: gatehouseReason}
		}
	}
	if access == Write {
		// A root deleted behind the session's back (a removed worktree) is
		// not made again by a write's missing folders.
		if _, err := os.Lstat(w.root); errors.Is(err, fs.ErrNotExist) {
			return "", &Error{Path: path, Code: CodeGone, Reason: fmt.Sprintf("the workspace folder %s no longer exists", w.root)}
		}
	}
	var res string
	var err error
	if rest, ok := under(w.root, abs); ok {
		// The root's own components were resolved by New: start there.
		res, _, err = resolveFrom(w.root, rest, dirs)
	} else {
		res, _, err = resolveReal(abs, dirs)
	}
	if err != nil {
		if errors.Is(err, errLoop) {
			return "", &Error{Path: path, Code: CodeLoop, Reason: "too many levels of symbolic links (a symlink loop)"}
		}
		if errors.Is(err, errNameTooLong) {
			return "", &Error{Path: path, Code: CodeInvalid, Reason: err.Error()}
		}
		return "", &Error{Path: path, Code: CodeIO, Reason: err.Error()}
	}
	if err := w.check(path, res, access); err != nil {
		return res, err
	}
	if policy {
		if why := w.Denied(res, access); why != "" {
			return res, &Error{Path: path, Code: CodeDenied, Reason: HiddenReason(why)}
		}
	}
	return res, nil
}

func (w *Workspace) check(given, res string, access Access) error {
	for _, p := range w.protected {
		if _, ok := under(p, res); ok && !w.carvedOut(p, res, access) {
			return &Error{Path: given, Code: CodeProtected, Reason: fmt.Sprintf("%s is Gatehouse's own folder", p)}
		}
	}
	rel, inRoot := under(w.root, res)
	ro := w.readOnlyRoot(res)
	if !inRoot && ro == "" {
		return &Error{Path: given, Code: CodeOutside, Reason: fmt.Sprintf("it resolves to %s, outside the workspace root %s", res, w.root)}
	}
	if access == Write && ro != "" {
		return &Error{Path: given, Code: CodeReadOnly, Reason: fmt.Sprintf("it lies in the read-only root %s", ro)}
	}
	if ro != "" {
		rel, _ = under(ro, res)
	}
	if why := protectedRel(rel, access); why != "" {
		return &Error{Path: given, Code: CodeProtected, Reason: why}
	}
	return nil
}

func (w *Workspace) inReadOnly(p string) bool { return w.readOnlyRoot(p) != "" }

// carvedOut reports whether res, inside the protected folder prot, is
// readable all the same: it lies in a read-only root strictly below prot
// (a skill folder in the user's skills folder). The rest of prot, and
// writes anywhere in it, stay refused.
func (w *Workspace) carvedOut(prot, res string, access Access) bool {
	if access != Read {
		return false
	}
	ro := w.readOnlyRoot(res)
	if ro == "" || ro == prot {
		return false
	}
	_, ok := under(prot, ro)
	return ok
}

// readOnlyRoot returns the deepest read-only root holding p, or "".
func (w *Workspace) readOnlyRoot(p string) string {
	best := ""
	for _, set := range [2][]string{w.readOnly, w.live.get()} {
		for _, ro := range set {
			if _, ok := under(ro, p); ok && len(ro) > len(best) {
				best = ro
			}
		}
	}
	return best
}

// under reports whether p is base or lies below it, and p relative to base.
func under(base, p string) (string, bool) {
	if p == base {
		return ".", true
	}
	prefix := base
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	if strings.HasPrefix(p, prefix) {
		return p[len(prefix):], true
	}
	return "", false
}

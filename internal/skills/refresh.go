package skills

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gatehouse/internal/trust"
)

// Refresh discovers the skills again when anything discovery reads looks
// changed since the last discovery: a skill folder added to or removed
// from a source, a SKILL.md edited, any file of the workspace's skills
// edited (which takes their trust back), the user's trust decisions. The
// look is by names, sizes and modification times (no file is read), so
// the host can ask before every model request: an edited workspace skill
// leaves the catalog, and a skill folder the user created mid-session joins
// it (and the session's read-only roots), from that request on. It reports
// whether it discovered again. Activate re-checks a workspace skill's
// trust by its bytes whatever this says.
func (c *Catalog) Refresh() bool {
	c = c.root()
	c.mu.Lock()
	o, last := c.opts, c.fp
	c.mu.Unlock()
	if fingerprint(o) == last {
		return false
	}
	c.Reload()
	return true
}

// OnRoots calls f with the folders the session reads as read-only roots
// (Set.ReadOnlyRoots) now, and again after each discovery that changes
// them, before the new set is offered. f must not call back into the
// catalog. One f per catalog; a later call replaces it.
func (c *Catalog) OnRoots(f func(roots []string)) {
	c = c.root()
	c.reload.Lock()
	defer c.reload.Unlock()
	c.onRoots = f
	c.roots = c.Set().ReadOnlyRoots()
	if f != nil {
		f(c.roots)
	}
}

// discover finds the skills o names and makes them the catalog's set,
// telling OnRoots first when the read-only roots changed.
func (c *Catalog) discover(o Options) Set {
	c.reload.Lock()
	defer c.reload.Unlock()
	fp := fingerprint(o) // before reading: a change meanwhile is seen next time
	s := Discover(o)
	if roots := s.ReadOnlyRoots(); !slices.Equal(roots, c.roots) {
		c.roots = roots
		if c.onRoots != nil {
			c.onRoots(roots)
		}
	}
	c.cur.Store(&s)
	c.mu.Lock()
	c.fp = fp
	c.mu.Unlock()
	return s
}

// fingerprint sums what discovery with o would read, without reading a
// file: each source's skill folders (where their links lead) and the size
// and time of each SKILL.md; every file below the workspace's skill
// folders (trust covers them all); the trust decisions' file.
func fingerprint(o Options) string {
	h := sha256.New()
	if o.Home != "" && o.Claude {
		sumSource(h, filepath.Join(o.Home, ".claude", "skills"))
	}
	if o.ConfigDir != "" {
		sumSource(h, UserDir(o.ConfigDir))
	}
	if o.Home != "" {
		sumSource(h, filepath.Join(o.Home, ".agents", "skills"))
	}
	if o.Workspace != "" {
		for _, base := range trust.Paths[trust.KindSkills] {
			sumTree(h, filepath.Join(o.Workspace, filepath.FromSlash(base)))
		}
	}
	if o.Trust != nil {
		sumStat(h, "trust", o.Trust.Path())
	}
	return hex.EncodeToString(h.Sum(nil))
}

// sumSource sums a user's source folder as userSource reads it.
func sumSource(h hash.Hash, dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		fmt.Fprintf(h, "%s\x00none\x00", dir)
		return
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		real, _ := filepath.EvalSymlinks(p)
		fmt.Fprintf(h, "%s\x00%s\x00", p, real)
		if real != "" {
			sumStat(h, "skill", filepath.Join(real, "SKILL.md"))
		}
	}
}

// sumTree sums every entry below dir, links not followed (as trust reads
// the workspace's skills).
func sumTree(h hash.Hash, dir string) {
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			fmt.Fprintf(h, "%s\x00err\x00", p)
			return nil
		}
		sumStat(h, "tree", p)
		return nil
	})
}

func sumStat(h hash.Hash, kind, p string) {
	fi, err := os.Lstat(p)
	if err != nil {
		fmt.Fprintf(h, "%s\x00%s\x00none\x00", kind, p)
		return
	}
	fmt.Fprintf(h, "%s\x00%s\x00%d\x00%d\x00%d\x00", kind, p, fi.Mode(), fi.Size(), fi.ModTime().UnixNano())
}

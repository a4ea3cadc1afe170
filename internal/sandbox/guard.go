package sandbox

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// Guard is what Landlock alone cannot hold read-only inside the workspace
// (.git/hooks, .git/config, .gatehouse/, .envrc): Landlock grants a whole
// folder or nothing, and git needs .git writable. A Guard remembers those
// paths before a command and puts them back after it, so that nothing the
// command planted there runs later unconfined; Restore says what it put
// back, for the call's result.
type Guard struct {
	roots []string
	files map[string]guarded // by path; a folder has dir set
}

type guarded struct {
	dir  bool
	mode fs.FileMode
	data []byte
}

// maxGuarded bounds what a Guard keeps in memory; past it the rest is not
// guarded (a .gatehouse folder that large is not Gatehouse's).
const maxGuarded = 8 << 20

// NewGuard remembers the paths below roots (missing ones as missing).
func NewGuard(roots []string) *Guard {
	g := &Guard{roots: roots, files: map[string]guarded{}}
	total := 0
	for _, r := range roots {
		filepath.WalkDir(r, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			fi, err := d.Info()
			if err != nil {
				return nil
			}
			switch {
			case d.IsDir():
				g.files[p] = guarded{dir: true, mode: fi.Mode().Perm()}
			case fi.Mode().IsRegular() && total+int(fi.Size()) <= maxGuarded:
				b, err := os.ReadFile(p)
				if err == nil {
					total += len(b)
					g.files[p] = guarded{mode: fi.Mode().Perm(), data: b}
				}
			}
			return nil
		})
	}
	return g
}

// Restore puts the guarded paths back as NewGuard found them: changed files
// rewritten, new files removed, removed ones recreated. It returns the
// paths it put back, sorted.
func (g *Guard) Restore() []string {
	var changed []string
	now := NewGuard(g.roots)
	for p := range now.files {
		if _, ok := g.files[p]; !ok {
			changed = append(changed, p)
			os.RemoveAll(p)
		}
	}
	var paths []string
	for p := range g.files {
		paths = append(paths, p)
	}
	slices.Sort(paths) // folders before what they hold
	for _, p := range paths {
		want := g.files[p]
		have, ok := now.files[p]
		if ok && have.dir == want.dir && have.mode == want.mode && bytes.Equal(have.data, want.data) {
			continue
		}
		changed = append(changed, p)
		if want.dir {
			os.MkdirAll(p, want.mode)
			os.Chmod(p, want.mode)
			continue
		}
		os.RemoveAll(p)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, want.data, want.mode)
		os.Chmod(p, want.mode)
	}
	slices.Sort(changed)
	return slices.Compact(changed)
}

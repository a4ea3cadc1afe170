package sandbox

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Guard is what Landlock alone cannot hold read-only inside the workspace
// (.git/hooks, .git/config, .gatehouse/, .envrc...): Landlock grants a whole
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
	mode fs.FileMode // with fs.ModeSymlink for a symbolic link (data: its target)
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
			case fi.Mode()&fs.ModeSymlink != 0: // a hook may be a link to a script
				if target, err := os.Readlink(p); err == nil {
					g.files[p] = guarded{mode: fs.ModeSymlink, data: []byte(target)}
				}
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
	for p, have := range now.files {
		if _, ok := g.files[p]; !ok && !harmless(p, have) {
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
		if want.mode&fs.ModeSymlink != 0 {
			os.Symlink(string(want.data), p)
			continue
		}
		os.WriteFile(p, want.data, want.mode)
		os.Chmod(p, want.mode)
	}
	slices.Sort(changed)
	return slices.Compact(changed)
}

// harmless reports whether a path a command created below a guarded root
// runs nothing later, so that a repository the command made itself (git
// init: a hooks folder of samples and a config) stays as git made it: a
// folder, a hook sample (git runs no *.sample), and a .git/config that
// says only what git init, git remote add and git config user.* write.
func harmless(p string, f guarded) bool {
	switch {
	case f.dir:
		return true
	case f.mode&fs.ModeSymlink != 0:
		return false
	case filepath.Base(filepath.Dir(p)) == "hooks":
		return strings.HasSuffix(p, ".sample")
	case filepath.Base(p) == "config" && filepath.Base(filepath.Dir(p)) == ".git":
		return plainGitConfig(f.data)
	}
	return false
}

// plainGitConfigKeys are the settings a new repository's config may hold
// and stay: none of them runs anything (remote URLs fetch only when the
// user does, and git refuses the ext:: transport by default).
var plainGitConfigKeys = []string{
	"core.repositoryformatversion", "core.filemode", "core.bare", "core.logallrefupdates", "core.ignorecase",
	"core.precomposeunicode", "core.symlinks", "extensions.objectformat", "extensions.refstorage",
	"remote.*.url", "remote.*.fetch", "branch.*.remote", "branch.*.merge", "user.name", "user.email",
}

// plainGitConfig reports whether a git config file sets only
// plainGitConfigKeys. Anything it cannot read plainly (a continued line,
// an include, a subsection where none is expected) is not plain.
func plainGitConfig(b []byte) bool {
	section := ""
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if strings.HasSuffix(line, "\\") {
			return false
		}
		if line[0] == '[' {
			end := strings.IndexByte(line, ']')
			if end < 0 || strings.TrimSpace(line[end+1:]) != "" && !strings.HasPrefix(strings.TrimSpace(line[end+1:]), "#") {
				return false
			}
			name, sub, quoted := strings.Cut(line[1:end], " ")
			section = strings.ToLower(name)
			if quoted {
				section += ".*"
				if !strings.HasPrefix(sub, "\"") || !strings.HasSuffix(sub, "\"") {
					return false
				}
			}
			continue
		}
		key, _, _ := strings.Cut(line, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		if section == "" || !slices.Contains(plainGitConfigKeys, section+"."+key) {
			return false
		}
	}
	return true
}

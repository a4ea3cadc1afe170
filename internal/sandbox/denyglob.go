package sandbox

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// The read denies of the user's standing policy (policy.ReadDenies): path
// globs relative to the workspace, which a command cannot read either.
// Each command's policy matches them against the workspace as it is when
// the command starts (Build), so a file made since the last command (a
// new .env) is hidden from the next one: its path joins DenyRead, which
// changes the policy's HolderKey, and a new holder is made.

// maxGlobVisits bounds the folders a glob with "**" or a wildcard lists
// per command: past it the search stops, and the glob is reported as only
// partly searched (Policy.GlobsPartial).
const maxGlobVisits = 20000

// ExpandGlobs returns the paths below ws that globs match (ws-relative,
// "/"-separated, "**" any number of folders, else path.Match per name),
// shortest first and none below another (a folder matched covers what it
// holds); partial lists the globs whose search stopped at maxGlobVisits.
// The search does not enter .git (git's objects are not the workspace's
// files), nor follow symbolic links to folders; ws itself is never a
// match.
func ExpandGlobs(ws string, globs []string) (paths, partial []string) {
	if ws == "" {
		return nil, nil
	}
	var found []string
	for _, g := range globs {
		visits := 0
		g = strings.Trim(path.Clean("/"+filepath.ToSlash(g)), "/")
		if g == "" || g == "." {
			continue
		}
		stopped := false
		var walk func(dir string, segs []string)
		walk = func(dir string, segs []string) {
			if stopped {
				return
			}
			if len(segs) == 0 {
				if dir != ws {
					found = append(found, dir)
				}
				return
			}
			seg, rest := segs[0], segs[1:]
			switch {
			case seg == "**" && len(rest) == 0:
				walk(dir, nil) // the folder covers all below it
			case seg == "**":
				walk(dir, rest)
				for _, e := range listDir(dir, &visits, &stopped) {
					if e.IsDir() && e.Name() != ".git" { // IsDir: not a link to one
						walk(filepath.Join(dir, e.Name()), segs)
					}
				}
			case !hasMeta(seg):
				if p := filepath.Join(dir, seg); lexists(p) {
					walk(p, rest)
				}
			default:
				for _, e := range listDir(dir, &visits, &stopped) {
					if ok, _ := path.Match(seg, e.Name()); ok {
						walk(filepath.Join(dir, e.Name()), rest)
					}
				}
			}
		}
		walk(filepath.Clean(ws), strings.Split(g, "/"))
		if stopped {
			partial = append(partial, g)
		}
	}
	return outermost(found), partial
}

// outermost keeps each path once, and none below another of them.
func outermost(in []string) []string {
	slices.SortFunc(in, func(a, b string) int { return len(a) - len(b) })
	var out []string
	for _, p := range in {
		if !slices.ContainsFunc(out, func(o string) bool { return Within(p, o) }) {
			out = append(out, p)
		}
	}
	return out
}

func hasMeta(s string) bool { return strings.ContainsAny(s, `*?[\`) }

func lexists(p string) bool { _, err := os.Lstat(p); return err == nil }

// listDir lists dir's entries (their kinds as the folder says, no stat
// each), counting the visit; none once the visits passed maxGlobVisits
// (stopped is then set).
func listDir(dir string, visits *int, stopped *bool) []os.DirEntry {
	if *visits++; *visits > maxGlobVisits {
		*stopped = true
		return nil
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil
	}
	defer f.Close()
	entries, _ := f.ReadDir(-1)
	return entries
}

// checkouts are the folders of the repository's other checkouts, seen
// from a linked worktree: the main one's and the other linked worktrees'
// (their files, a .env among them, are readable from it as any folder).
func (r linkedRepo) checkouts() []string {
	var out []string
	if filepath.Base(r.common) == ".git" {
		out = append(out, filepath.Dir(r.common))
	}
	for _, o := range r.others {
		if b, err := os.ReadFile(filepath.Join(o, "gitdir")); err == nil {
			if gitfile := strings.TrimSpace(string(b)); filepath.IsAbs(gitfile) {
				out = append(out, filepath.Dir(gitfile))
			}
		}
	}
	return out
}

// policyDenies splits what the policy's globs match in roots (symbolic
// links resolved) into what the layers hide and what they cannot: with
// namespaces every path is an empty mount; with Landlock alone a path in a
// writable folder (the workspace) stays readable, since Landlock grants
// the workspace whole.
func policyDenies(roots []string, globs []string, writable []string, namespaces bool) (hide, open, partial []string) {
	var paths []string
	for _, root := range roots {
		ps, part := ExpandGlobs(root, globs)
		paths, partial = append(paths, ps...), append(partial, part...)
	}
	for _, p := range existing(paths) {
		if !namespaces && slices.ContainsFunc(writable, func(w string) bool { return Within(p, w) }) {
			open = append(open, p)
		} else {
			hide = append(hide, p)
		}
	}
	return hide, open, partial
}

// above are the folders between each of paths and the writable folder
// holding it (that folder itself left out), each once: pinned (bound onto
// themselves), they cannot be renamed, so a command cannot carry a denied
// file out from under the path its rule names (mv config cfg, then a read
// of cfg/prod.env by a later command or a file tool). The denied path
// itself is a mount point already.
func above(paths, writable []string) []string {
	var out []string
	for _, p := range paths {
		i := slices.IndexFunc(writable, func(w string) bool { return Within(p, w) })
		if i < 0 {
			continue
		}
		for d := filepath.Dir(p); d != writable[i] && Within(d, writable[i]); d = filepath.Dir(d) {
			if !slices.Contains(out, d) {
				out = append(out, d)
			}
		}
	}
	return out
}

// CannotHide is what the sandbox says where Landlock alone holds (no
// namespaces): the policy's read denies inside the workspace are not
// hidden from commands.
const CannotHide = "Landlock alone cannot hide a path inside the workspace it grants whole (no namespaces here): your policy's read denies hold for Gatehouse's file tools, not for commands."

// Hides says whether a command confined by p cannot read path (absolute,
// symbolic links resolved by the caller or not) and, when it can, why
// the sandbox does not hide it ("" when p hides it). For the policy check
// and the dialog.
func (p Policy) Hides(abs string) (bool, string) {
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	if slices.ContainsFunc(p.DenyRead, func(d string) bool { return Within(abs, d) }) {
		return true, ""
	}
	if slices.ContainsFunc(p.Unhidden, func(d string) bool { return Within(abs, d) }) {
		return false, CannotHide
	}
	if !lexists(abs) {
		return false, "it does not exist yet: the sandbox hides it from the first command that starts once it exists (a command that makes it can read it)"
	}
	return false, "no read deny of the sandbox or your policy names it"
}

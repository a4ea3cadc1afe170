package sandbox

import (
	"os"
	"path/filepath"
	"strings"
)

// linkedRepo is the git data of a linked worktree (git worktree add) kept
// in its main repository's .git, outside the workspace: a commit there
// writes objects, refs and logs in common, and the worktree's own index,
// HEAD and logs in gitdir (common/worktrees/<name>).
type linkedRepo struct {
	common, gitdir string
	others         []string // the other worktrees' folders in common/worktrees
}

// linkedWorktree reads ws/.git when it is a gitfile of a linked worktree,
// and checks that the repository named is one: the gitfile names
// common/worktrees/<name>, whose commondir leads to a .git holding HEAD,
// objects and refs, and whose gitdir file leads back to ws/.git. A gitfile
// that names anything else (a cloned folder's .git pointing at the home
// folder) grants nothing.
func linkedWorktree(ws string) (linkedRepo, bool) {
	var r linkedRepo
	gitfile := filepath.Join(ws, ".git")
	b, err := os.ReadFile(gitfile)
	if err != nil || len(b) > 4096 {
		return r, false
	}
	dir, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
	if !ok {
		return r, false
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(ws, dir)
	}
	gitdir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return r, false
	}
	c, err := os.ReadFile(filepath.Join(gitdir, "commondir"))
	if err != nil {
		return r, false
	}
	common := strings.TrimSpace(string(c))
	if !filepath.IsAbs(common) {
		common = filepath.Join(gitdir, common)
	}
	if common, err = filepath.EvalSymlinks(common); err != nil || filepath.Dir(gitdir) != filepath.Join(common, "worktrees") {
		return r, false
	}
	for _, n := range []string{"HEAD", "objects", "refs"} {
		if _, err := os.Stat(filepath.Join(common, n)); err != nil {
			return r, false
		}
	}
	back, err := os.ReadFile(filepath.Join(gitdir, "gitdir"))
	if err != nil {
		return r, false
	}
	want, err1 := filepath.EvalSymlinks(gitfile)
	got, err2 := filepath.EvalSymlinks(strings.TrimSpace(string(back)))
	if err1 != nil || err2 != nil || want != got {
		return r, false
	}
	entries, _ := os.ReadDir(filepath.Join(common, "worktrees"))
	for _, e := range entries {
		if p := filepath.Join(common, "worktrees", e.Name()); e.IsDir() && p != gitdir {
			r.others = append(r.others, p)
		}
	}
	r.common, r.gitdir = common, gitdir
	return r, true
}

// writable is what a commit in the worktree writes: the main repository's
// .git.
func (r linkedRepo) writable() []string { return []string{r.common} }

// guards are what stays read-only in it: the main .git's hooks and config
// (git runs and reads them for every worktree), and for each worktree
// (this one and the others) the files that say where its repository is
// and its own config. pinned are the worktrees' folders, bound onto
// themselves so that none is renamed away and replaced.
func (r linkedRepo) guards() (pinned, readOnly []string) {
	readOnly = []string{filepath.Join(r.common, "hooks"), filepath.Join(r.common, "config")}
	for _, w := range append([]string{r.gitdir}, r.others...) {
		pinned = append(pinned, w)
		for _, n := range []string{"config.worktree", "commondir", "gitdir"} {
			readOnly = append(readOnly, filepath.Join(w, n))
		}
	}
	return pinned, readOnly
}

// MainCheckout is the main checkout's folder of ws when ws is a linked
// worktree (git worktree add) of a repository whose .git is a folder in
// it, checked as linkedWorktree checks it; ok is false for any other
// folder. The user's rules for the main checkout hold in its worktrees.
func MainCheckout(ws string) (string, bool) {
	r, ok := linkedWorktree(ws)
	if !ok || filepath.Base(r.common) != ".git" {
		return "", false
	}
	return filepath.Dir(r.common), true
}

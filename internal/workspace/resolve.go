package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// maxLinks bounds the symlinks followed while resolving one path, as the
// kernel does; more means a loop.
const maxLinks = 40

var errLoop = errors.New("symlink loop")

// errNameTooLong: a component is longer than any file system allows, so the
// path can never exist. Refused whether or not the components before it
// exist, so resolving is the same on every call.
var errNameTooLong = errors.New("a name in the path is longer than 255 bytes")

// maxName is the longest file name Linux file systems allow (NAME_MAX).
const maxName = 255

// resolveReal returns abs with every symlink component followed, and whether
// the whole path exists. Components from the first missing one on are
// appended lexically ('..' among them drops the previous one, as it would
// once the folders are created). abs must be absolute.
func resolveReal(abs string, dirs *dirCache) (string, bool, error) {
	vol := filepath.VolumeName(abs)
	return resolveFrom(vol+string(filepath.Separator), abs[len(vol):], dirs)
}

// resolveFrom is resolveReal of base joined with rel, where base is an
// absolute path with no symlinks in it. Folders in dirs are taken as
// existing, not symlinks, without a look; the folders found are added to it
// (dirs may be nil).
func resolveFrom(base, rel string, dirs *dirCache) (string, bool, error) {
	pending := splitPath(rel)
	cur := base
	links := 0
	exists := true
	for len(pending) > 0 {
		c := pending[0]
		pending = pending[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			// cur has no symlinks left in it, so its lexical parent is its
			// real parent.
			cur = filepath.Dir(cur)
			continue
		}
		if len(c) > maxName {
			return "", false, errNameTooLong
		}
		next := filepath.Join(cur, c)
		if !exists || dirs.has(next) {
			cur = next
			continue
		}
		fi, err := os.Lstat(next)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
				exists = false
				cur = next
				continue
			}
			return "", false, err
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			if fi.IsDir() {
				dirs.add(next)
			}
			cur = next
			continue
		}
		links++
		if links > maxLinks {
			return "", false, errLoop
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", false, err
		}
		if filepath.IsAbs(target) {
			tv := filepath.VolumeName(target)
			cur = tv + string(filepath.Separator)
			target = target[len(tv):]
		}
		pending = append(splitPath(target), pending...)
	}
	return cur, exists, nil
}

func splitPath(p string) []string {
	return strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == filepath.Separator })
}

// Names refused for writes anywhere below a root, and for reads too.
var secretDirs = []string{".ssh", ".aws", ".gnupg"}

// protectedRel says why rel (a resolved path relative to the root holding
// it) is a protected place for access, or "" when it is not. Names compare
// case-insensitively: on case-insensitive file systems .SSH is .ssh.
func protectedRel(rel string, access Access) string {
	if rel == "." || rel == "" {
		return ""
	}
	for _, p := range splitPath(rel) {
		for _, s := range secretDirs {
			if strings.EqualFold(p, s) {
				return s + " holds credentials and is never reachable"
			}
		}
	}
	if access == Write && InGit(rel) {
		return gitReason
	}
	if access == Write && InGatehouse(rel) {
		return gatehouseReason
	}
	return ""
}

const gatehouseReason = ".gatehouse holds the workspace's agents, servers and policy, which the user trusts: only the user changes it, never a tool"

// InGatehouse reports whether path names a folder called .gatehouse or lies
// below one (compared as gitName compares .git): a tool that could write
// there could plant an agent definition, a server or a policy the user
// then trusts out of habit.
func InGatehouse(path string) bool {
	for _, p := range splitPath(path) {
		if specialName(p, ".gatehouse", "gateho~1") {
			return true
		}
	}
	return false
}

const gitReason = "nothing named .git, or inside a .git folder, is ever writable by a tool (git's own files can make the next git command run code)"

// InGit reports whether path (as given or resolved, relative or absolute)
// names .git or lies below a component named .git (compared
// case-insensitively). Tools never write there: a .git folder's config,
// hooks or commondir, or a .git file (a gitfile pointing elsewhere), can
// make the next git command run code. git itself writing there is normal.
func InGit(path string) bool {
	for _, p := range splitPath(path) {
		if gitName(p) {
			return true
		}
	}
	return false
}

// gitName reports whether name is .git to some file system, as git's own
// checks have it: case aside, HFS+ ignores some invisible code points,
// NTFS drops trailing dots and spaces and a ":stream" suffix, and knows
// .git by its short name GIT~1.
func gitName(name string) bool { return specialName(name, ".git", "git~1") }

// specialName reports whether name is want (or its NTFS short name) to some
// file system; see gitName.
func specialName(name, want, short string) bool {
	n := strings.Map(func(r rune) rune {
		if r >= 0x200c && r <= 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x206a && r <= 0x206f || r == 0xfeff {
			return -1
		}
		return r
	}, name)
	n, _, _ = strings.Cut(n, ":")
	n = strings.TrimRight(n, ". ")
	return strings.EqualFold(n, want) || strings.EqualFold(n, short)
}

package approval

import (
	"path/filepath"
	"slices"
	"strings"
)

// What a destructive command destroys, in words for someone who does not
// live in a terminal.
const (
	discardsChanges = "discards your uncommitted changes"
	rewritesRemote  = "rewrites history on the remote"
	killsAll        = "kills all your processes"
)

// destructive says what the simple command prog args destroys that cannot
// be taken back, or "". sub is its subcommand at args[subAt] (-1: none).
func (a *analyzer) destructive(prog string, args []string, sub string, subAt int) string {
	var rest []string
	if subAt >= 0 {
		rest = args[subAt+1:]
	}
	switch prog {
	case "git":
		return gitDestructive(sub, rest)
	case "kill":
		return killDestructive(args)
	case "rm":
		return a.rmDestructive(args)
	}
	return ""
}

func gitDestructive(sub string, args []string) string {
	has := func(long string, short byte) bool { return hasOption(args, long, short) }
	switch sub {
	case "reset":
		if slices.Contains(args, "--hard") || slices.Contains(args, "--merge") {
			return discardsChanges
		}
	case "clean":
		if has("--dry-run", 'n') || !has("--force", 'f') {
			return "" // git refuses to delete without -f
		}
		if has("", 'X') {
			return "deletes the files git ignores (build output, local settings)"
		}
		words := "deletes untracked files"
		if has("", 'd') {
			words += " and folders"
		}
		if has("", 'x') {
			words += ", ignored ones too"
		}
		return words
	case "checkout":
		if slices.Contains(args, "--") || slices.Contains(args, ".") || has("--force", 'f') {
			return discardsChanges
		}
	case "restore":
		if has("--staged", 'S') && !has("--worktree", 'W') {
			return "" // only unstages
		}
		return discardsChanges
	case "push":
		for _, w := range args {
			if w == "--force" || strings.HasPrefix(w, "--force-with-lease") || w == "--mirror" ||
				strings.HasPrefix(w, "+") {
				return rewritesRemote
			}
		}
		if has("", 'f') {
			return rewritesRemote
		}
		if has("--delete", 'd') || slices.ContainsFunc(args, func(w string) bool { return strings.HasPrefix(w, ":") && len(w) > 1 }) {
			return "deletes a branch on the remote"
		}
	case "branch":
		if has("", 'D') || slices.Contains(args, "--delete") && has("--force", 'f') {
			return "deletes a branch even if its work is not merged"
		}
	case "stash":
		if len(args) > 0 && args[0] == "clear" {
			return "deletes all your stashed changes"
		}
	}
	return ""
}

// hasOption reports whether args hold the long option (or long=value) or
// the short letter, alone or in a cluster (-fdx). Words after "--" are
// operands.
func hasOption(args []string, long string, short byte) bool {
	for _, w := range args {
		switch {
		case w == "--":
			return false
		case long != "" && (w == long || strings.HasPrefix(w, long+"=")):
			return true
		case short != 0 && len(w) > 1 && w[0] == '-' && w[1] != '-' && strings.IndexByte(w[1:], short) >= 0:
			return true
		}
	}
	return false
}

// killDestructive flags kill sending a signal to pid -1: every process the
// user may signal.
func killDestructive(args []string) string {
	i := 0
	if i < len(args) && (args[i] == "-s" || args[i] == "-n") {
		i += 2
	} else if i < len(args) && args[i] != "--" && args[i] != "-1" && strings.HasPrefix(args[i], "-") {
		i++ // -9, -KILL, -SIGTERM
	} else if i+1 < len(args) && args[i] == "-1" {
		i++ // kill -1 PID: -1 is the signal (HUP)
	}
	for _, w := range args[min(i, len(args)):] {
		if w == "-1" {
			return killsAll
		}
	}
	return ""
}

// rmDestructive flags a recursive rm of the whole workspace, a .git folder, the home
// folder or the file system's root.
func (a *analyzer) rmDestructive(args []string) string {
	if !hasOption(args, "--recursive", 'r') && !hasOption(args, "", 'R') {
		return ""
	}
	root := ""
	if r, ok := a.b.(interface{ Root() string }); ok {
		root = r.Root()
	}
	operands := false
	for _, w := range args {
		if w == "--" && !operands {
			operands = true
			continue
		}
		if !operands && strings.HasPrefix(w, "-") {
			continue
		}
		w = hereWord(w)
		glob := w == "*" || strings.HasSuffix(w, "/*")
		p := strings.TrimSuffix(w, "*")
		switch {
		case p == "~" || p == "~/" || strings.HasPrefix(w, "$HOME") && strings.TrimRight(p[5:], "/") == "":
			return "deletes your home folder"
		case strings.TrimRight(p, "/") == "" && strings.HasPrefix(p, "/"):
			return "deletes every file it can reach on the computer"
		}
		if filepath.Base(strings.TrimRight(w, "/")) == ".git" {
			return "deletes the project's git history"
		}
		if root == "" || strings.HasPrefix(p, "~") {
			continue
		}
		if p == "" {
			p = "."
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(a.cwd, p)
		}
		p = filepath.Clean(p)
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		if p == root && glob {
			return "deletes everything in the workspace"
		}
		if rel, err := filepath.Rel(p, root); err == nil && (rel == "." || !strings.HasPrefix(rel, "..")) {
			return "deletes the whole workspace"
		}
	}
	return ""
}

// hereWord writes the current folder given as $PWD or $(pwd) (as the
// segment's source text) as ".", so rm -rf "$PWD" is seen for what it is.
func hereWord(w string) string {
	u := strings.Trim(w, `"`)
	for _, here := range []string{"$PWD", "${PWD}", "$(pwd)", "`pwd`"} {
		if u == here || strings.HasPrefix(u, here+"/") {
			return "." + u[len(here):]
		}
	}
	return w
}

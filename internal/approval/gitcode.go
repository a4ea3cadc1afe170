package approval

import (
	"path"
	"slices"
	"strings"
)

// git reads commands to run from its configuration: a command that sets
// one of these makes a later, harmless-looking git command (git status, a
// commit, a diff) run whatever it names. Keys are lower case; "*" stands
// for one subsection (diff.<driver>.textconv).
var gitCodeKeys = []string{
	"core.fsmonitor", "core.hookspath", "core.sshcommand", "core.editor", "core.pager", "core.askpass",
	"core.gitproxy", "core.alternaterefscommand", "sequence.editor", "diff.external", "diff.*.textconv",
	"diff.*.command", "merge.*.driver", "filter.*.clean", "filter.*.smudge", "filter.*.process",
	"credential.helper", "credential.*.helper", "gpg.program", "gpg.*.program", "uploadpack.packobjectshook",
	"include.path", "includeif.*.path", "pager.*", "remote.*.uploadpack", "remote.*.receivepack",
	"remote.*.vcs", "protocol.allow", "protocol.*.allow", "http.sslkeylogfile", "instaweb.httpd",
}

// gitCodeKey reports whether setting git config key (any case) to value
// can make git run code: a key of gitCodeKeys, or an alias whose value is a
// shell command ("!…") or carries -c options.
func gitCodeKey(key, value string, valueKnown bool) bool {
	k := strings.ToLower(key)
	if strings.HasPrefix(k, "alias.") {
		v := strings.TrimSpace(value)
		return !valueKnown || strings.HasPrefix(v, "!") || strings.Contains(v, "-c") || strings.Contains(v, "--config-env")
	}
	// filter.<driver>.<anything>: the driver's commands.
	if strings.HasPrefix(k, "filter.") {
		return true
	}
	first, rest, _ := strings.Cut(k, ".")
	sub, last := "", rest
	if i := strings.LastIndexByte(rest, '.'); i >= 0 {
		sub, last = rest[:i], rest[i+1:]
	}
	for _, p := range gitCodeKeys {
		pf, pr, _ := strings.Cut(p, ".")
		if pf != first {
			continue
		}
		if pr == last && sub == "" || pr == "*" && sub == "" ||
			strings.HasPrefix(pr, "*.") && sub != "" && pr[2:] == last {
			return true
		}
	}
	return false
}

// gitEnvRunsCode lists the environment variables that make git run code
// or read configuration from elsewhere.
var gitEnvRunsCode = []string{"GIT_SSH", "GIT_SSH_COMMAND", "GIT_PAGER", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR",
	"GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "GIT_PROXY_COMMAND", "GIT_EXEC_PATH", "GIT_TEMPLATE_DIR"}

// gitEnvName reports whether an assignment of name makes git run code:
// GIT_CONFIG_COUNT / GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n,
// GIT_CONFIG_PARAMETERS, GIT_CONFIG(_GLOBAL, _SYSTEM) and those of
// gitEnvRunsCode.
func gitEnvName(name string) bool {
	return strings.HasPrefix(name, "GIT_CONFIG") || slices.Contains(gitEnvRunsCode, name)
}

// gitConfigCode returns the key a git command line (args: git's arguments)
// sets to something that can run code, through `-c key=value`,
// `--config-env=key=VAR` or `git config [set] key value`, and whether that
// write goes to the repository's own config (.git/config); "" when none.
func gitConfigCode(args []string, sub string, subAt int) (key string, local bool) {
	end := len(args)
	if subAt >= 0 {
		end = subAt
	}
	for i := 0; i < end; i++ {
		w := args[i]
		var kv string
		switch {
		case w == "-c" && i+1 < end:
			kv = args[i+1]
			i++
		case strings.HasPrefix(w, "-c") && len(w) > 2:
			kv = w[2:]
		case w == "--config-env" && i+1 < end:
			k, _, _ := strings.Cut(args[i+1], "=")
			if gitCodeKey(k, "", false) {
				return k, false
			}
			i++
			continue
		case strings.HasPrefix(w, "--config-env="):
			k, _, _ := strings.Cut(strings.TrimPrefix(w, "--config-env="), "=")
			if gitCodeKey(k, "", false) {
				return k, false
			}
			continue
		default:
			continue
		}
		k, v, hasV := strings.Cut(kv, "=")
		if gitCodeKey(k, v, hasV) {
			return k, false
		}
	}
	if sub != "config" || subAt < 0 {
		return "", false
	}
	return gitConfigWrite(args[subAt+1:])
}

// editAny is what `git config --edit` sets: whatever the user types.
const editAny = "any setting (git config --edit)"

// gitConfigWrite reads the arguments of `git config` and returns the key
// it writes when that key can run code, and whether it goes to the
// repository's config (no --global, --system or --file).
func gitConfigWrite(args []string) (string, bool) {
	local, edit := true, false
	var words []string
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch {
		case w == "--global" || w == "--system":
			local = false
		case w == "-f" || w == "--file" || w == "--blob":
			local = false
			i++
		case strings.HasPrefix(w, "--file=") || strings.HasPrefix(w, "--blob="):
			local = false
		case w == "-e" || w == "--edit":
			edit = true
		case w == "--type" || w == "--default" || w == "--comment" || w == "--value":
			i++
		case strings.HasPrefix(w, "-"):
			// --add, --replace-all, --local, --worktree, --get...: reading
			// options leave words to read, which are not written.
			if w == "--get" || w == "--get-all" || w == "--get-regexp" || w == "--get-urlmatch" ||
				w == "-l" || w == "--list" || w == "--unset" || w == "--unset-all" || w == "--remove-section" ||
				w == "--rename-section" || w == "--show-origin" && len(args) == 1 {
				return "", false
			}
		default:
			words = append(words, w)
		}
		// After the key, the next word is its value, dash or not
		// (alias.l '-c core.pager=… log').
		if len(words) > 0 && words[0] != "set" && len(words) == 1 && i+1 < len(args) ||
			len(words) == 2 && words[0] == "set" && i+1 < len(args) {
			words = append(words, args[i+1])
			break
		}
	}
	if edit {
		return editAny, local // the editor opens the config file: anything may be written
	}
	if len(words) > 0 {
		switch words[0] {
		case "set":
			words = words[1:]
		case "get", "list", "unset", "remove-section", "rename-section", "edit":
			if words[0] == "edit" {
				return editAny, local
			}
			return "", false
		}
	}
	if len(words) < 2 {
		return "", false // reading a key
	}
	if gitCodeKey(words[0], words[1], true) {
		return words[0], local
	}
	return "", false
}

// globNamesGit reports whether the shell pattern pat (a word's text with
// its quoted parts escaped, see wordPattern) can name .git or a path in
// one: a component such as .gi[t], .g?t or .gi* that matches .git. As bash
// does by default, a leading dot must be written: * alone does not match.
func globNamesGit(pat string) bool {
	for _, c := range strings.Split(pat, "/") {
		if c == "" || !strings.HasPrefix(c, ".") && !strings.HasPrefix(c, `\.`) {
			continue
		}
		lc := strings.ToLower(c)
		for _, name := range []string{".git", "git~1"} {
			if ok, err := path.Match(lc, name); err == nil && ok {
				return true
			}
		}
	}
	return false
}

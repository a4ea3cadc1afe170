package gitcmd

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// ErrUntrusted refuses what safe mode cannot do faithfully: a commit or
// merge whose hooks or signing the repository's settings ask for. The
// caller asks for trust (trust.KindGit) first.
var ErrUntrusted = errors.New("this runs the repository's hooks and git settings: trust them first")

// Git runs git for one repository: in safe mode until its settings are
// trusted. The zero value runs "git", always in safe mode.
type Git struct {
	// Program is the git program ("" is "git", found on PATH).
	Program string
	// Trusted reports, on each call, whether the user trusts the
	// repository's git settings as they are now (it re-reads them: a
	// change takes trust back before the next run); nil: never.
	Trusted func() bool
}

// Safe reports whether a run now would be in safe mode.
func (g Git) Safe() bool { return g.Trusted == nil || !g.Trusted() }

// Run runs git with args in dir, in safe mode unless the repository's
// settings are trusted now, and returns its standard output.
func (g Git) Run(ctx context.Context, dir string, stdin []byte, args ...string) ([]byte, error) {
	if g.Safe() {
		return g.RunSafe(ctx, dir, stdin, args...)
	}
	return Run(ctx, g.Program, dir, nil, stdin, args...)
}

// RunSafe runs git with args in dir in safe mode, trusted or not.
func (g Git) RunSafe(ctx context.Context, dir string, stdin []byte, args ...string) ([]byte, error) {
	env, err := SafeEnv(ctx, g.Program, dir)
	if err != nil {
		return nil, err
	}
	return runEnv(ctx, g.Program, dir, env, stdin, args...)
}

// fixed are the settings safe mode overrides whatever the config says.
var fixed = [][2]string{
	{"core.fsmonitor", "false"},
	{"core.hooksPath", os.DevNull},
	{"core.sshCommand", "ssh"},
	{"core.askPass", ""},
	{"core.pager", "cat"},
	{"core.alternateRefsCommand", ""},
	{"credential.helper", ""},
	{"diff.external", ""},
	{"commit.gpgSign", "false"},
	{"tag.gpgSign", "false"},
	{"tag.forceSignAnnotated", "false"},
	{"push.gpgSign", "false"},
	{"merge.verifySignatures", "false"},
	{"log.showSignature", "false"},
	{"gpg.program", ""},
	{"gpg.openpgp.program", ""},
	{"gpg.x509.program", ""},
	{"gpg.ssh.program", ""},
	{"gpg.ssh.defaultKeyCommand", ""},
	{"submodule.recurse", "false"},
	{"diff.ignoreSubmodules", "all"},
	{"status.submoduleSummary", "false"},
	{"fetch.recurseSubmodules", "false"},
	{"protocol.ext.allow", "never"},
	{"gc.auto", "0"},
	{"maintenance.auto", "false"},
}

// unsafeEnv are the variables of the app's environment that would start
// a program or override safe mode's settings.
var unsafeEnv = []string{"GIT_ASKPASS", "SSH_ASKPASS", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_EXTERNAL_DIFF",
	"GIT_PAGER", "GIT_PROXY_COMMAND", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"}

// SafeEnv is safe mode for a git run in dir, as environment entries
// (GIT_CONFIG_COUNT, GIT_CONFIG_KEY_n, GIT_CONFIG_VALUE_n: the last word
// on a setting, any name, even one holding "="): the fixed overrides and
// one for every program-running key git's config lists now.
func SafeEnv(ctx context.Context, git, dir string) ([]string, error) {
	out, err := runEnv(ctx, git, dir, nil, nil, "config", "--null", "--list")
	if err != nil && !noConfig(err) {
		return nil, errors.New("reading the repository's git settings: " + err.Error())
	}
	pairs := append([][2]string{}, fixed...)
	seen := map[string]bool{}
	for _, kv := range strings.Split(string(out), "\x00") {
		key, _, _ := strings.Cut(kv, "\n")
		if v, ok := neutral(key, git); ok && !seen[key] {
			seen[key] = true
			pairs = append(pairs, [2]string{key, v})
			if strings.HasPrefix(key, "filter.") {
				pairs = append(pairs, [2]string{key[:strings.LastIndex(key, ".")] + ".required", "false"})
			}
		}
	}
	env := []string{"GIT_CONFIG_COUNT=" + strconv.Itoa(len(pairs))}
	for i, p := range pairs {
		n := strconv.Itoa(i)
		env = append(env, "GIT_CONFIG_KEY_"+n+"="+p[0], "GIT_CONFIG_VALUE_"+n+"="+p[1])
	}
	return env, nil
}

// noConfig is `git config --list` finding no config at all.
func noConfig(err error) bool {
	var ee *exec.ExitError
	return errors.As(err, &ee) && ee.ExitCode() == 1
}

// neutral is the value safe mode gives key when key names a program
// (section.<sub>.name): a filter's clean, smudge or process is emptied, a
// textconv is cat, an external diff empty (diffs pass DiffFlags), a merge
// driver is git's own three-way merge, a credential helper or signing
// program empty.
func neutral(key, git string) (string, bool) {
	i, j := strings.Index(key, "."), strings.LastIndex(key, ".")
	if i < 0 || j <= i {
		return "", false
	}
	section, name := key[:i], key[j+1:]
	switch {
	case section == "filter" && (name == "clean" || name == "smudge" || name == "process"):
		return "", true
	case section == "diff" && name == "textconv":
		return "cat", true
	case section == "diff" && name == "command":
		return "", true
	case section == "merge" && name == "driver":
		if git == "" {
			git = "git"
		}
		return shellQuote(git) + " merge-file --marker-size=%L %A %O %B", true
	case section == "credential" && name == "helper":
		return "", true
	case section == "gpg" && (name == "program" || name == "defaultkeycommand"):
		return "", true
	}
	return "", false
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// runEnv runs git with safe mode's environment (env from SafeEnv, or nil
// for none) in place of the app's unsafe variables.
func runEnv(ctx context.Context, git, dir string, env []string, stdin []byte, args ...string) ([]byte, error) {
	drop := unsafeEnv
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "GIT_CONFIG_KEY_") || strings.HasPrefix(name, "GIT_CONFIG_VALUE_") {
			drop = append(drop[:len(drop):len(drop)], name)
		}
	}
	return run(ctx, git, dir, nil, drop, env, stdin, args...)
}

package approval

import (
	"path"
	"slices"
	"strings"

	"gatehouse/internal/protocol"
	"gatehouse/internal/workspace"
)

// The tables below flag what a simple command does. They are warnings for
// the dialog and the reason a command never rides on a rule; they are not a
// sandbox (see DESIGN.md: what a command does once started is not confined).

// wrappers run the command given in their arguments: the rule would see the
// wrapper, not the command, so a line with one is opaque.
var wrappers = set("env", "xargs", "nohup", "nice", "ionice", "timeout", "stdbuf", "setsid", "command",
	"builtin", "exec", "time", "watch", "chrt", "taskset", "unbuffer", "script", "flock", "strace",
	"ltrace", "parallel", "chroot", "unshare", "nsenter", "firejail", "systemd-run", "caffeinate",
	"eval", "source", ".", "trap", "coproc", "fakeroot", "proot", "busybox", "npx", "pnpx", "bunx",
	"uvx", "pipx", "sg", "newgrp", "dbus-launch", "xvfb-run")

// shellState changes the state the rest of the line runs in (its folder,
// options, aliases, the commands names resolve to): paths and names after
// it cannot be judged, so a line with one is opaque.
var shellState = set("cd", "pushd", "popd", "alias", "unalias", "hash", "enable", "set", "shopt", "export",
	"unset", "declare", "typeset", "local", "readonly", "read", "mapfile", "readarray", "ulimit", "umask")

// elevators gain privileges; they are also wrappers.
var elevators = set("sudo", "su", "doas", "pkexec", "run0", "runuser")

// shells and interpreters run code given on the command line or on stdin.
var shells = set("sh", "bash", "dash", "zsh", "ksh", "mksh", "fish", "csh", "tcsh", "ash", "busybox")
var interpreters = set("python", "python2", "python3", "perl", "ruby", "node", "nodejs", "deno", "bun",
	"php", "lua", "luajit", "tclsh", "Rscript", "osascript", "pwsh", "powershell")

// scripting tools whose programs can run commands or write files (awk's
// system(), sed's e and w commands).
var scripting = set("awk", "gawk", "mawk", "nawk", "sed", "gsed", "jq")

var deleters = set("rm", "rmdir", "unlink", "shred", "srm", "trash", "trash-put", "wipe")

var networkers = set("curl", "wget", "ssh", "scp", "sftp", "nc", "ncat", "netcat", "socat", "telnet",
	"ftp", "ping", "dig", "nslookup", "host", "http", "https", "xh", "aria2c", "gh", "apt", "apt-get",
	"yum", "dnf", "brew", "pacman", "snap", "zypper", "apk", "rsync", "ssh-copy-id", "websocat")

// networkSub lists the subcommands that reach the network, per program.
var networkSub = map[string][]string{
	"git":      {"push", "pull", "fetch", "clone", "ls-remote", "submodule", "remote", "send-email"},
	"npm":      {"install", "i", "ci", "add", "update", "upgrade", "publish", "exec", "x", "view", "info", "login", "audit", "outdated"},
	"pnpm":     {"install", "i", "add", "update", "up", "publish", "dlx", "exec", "outdated"},
	"yarn":     {"install", "add", "upgrade", "up", "publish", "dlx", "npm"},
	"bun":      {"install", "i", "add", "update", "publish", "x"},
	"pip":      {"install", "download"},
	"pip3":     {"install", "download"},
	"uv":       {"pip", "add", "sync", "lock", "tool", "run"},
	"poetry":   {"add", "install", "update", "lock", "publish"},
	"go":       {"get", "install", "mod"},
	"cargo":    {"install", "publish", "fetch", "update", "add", "search", "login"},
	"gem":      {"install", "update", "push", "fetch"},
	"composer": {"install", "require", "update"},
	"docker":   {"pull", "push", "login", "run", "build", "compose"},
	"podman":   {"pull", "push", "login", "run", "build"},
}

// writers change the files named in their arguments; destOnly ones write
// only their last argument (or -t's).
var writers = set("cp", "mv", "install", "ln", "tee", "touch", "mkdir", "rm", "rmdir", "chmod", "chown",
	"chgrp", "truncate", "unlink", "shred", "dd", "rsync")
var destOnly = set("cp", "install", "ln", "rsync")

// classify sets the flags of segment s from its words; lit[i] says whether
// words[i] is a literal.
func (a *analyzer) classify(s *segment, words []string, lit []bool) {
	for i := 0; i < len(words); i++ {
		if !lit[i] {
			if i == 0 {
				s.Opaque = true
			} else if homeish(words[i]) {
				s.reachesOut = true
				s.readOut(words[i])
			}
			continue
		}
		w := words[i]
		v := w
		if j := strings.IndexByte(w, '='); j >= 0 && strings.HasPrefix(w, "-") {
			v = w[j+1:]
		}
		pathLike := strings.HasPrefix(w, "~") || strings.Contains(w, "/") || strings.Contains(w, "..")
		if v == "" || harmlessDevice(v) {
			continue
		}
		if pathLike && a.outside(v) {
			s.reachesOut = true
		}
		// What the segment reads outside: every operand (a bare name may be
		// a symlink out), and option values that look like paths.
		if i > 0 && (pathLike || a.b != nil && !strings.HasPrefix(w, "-")) && a.outsideFor(v, workspace.Read) {
			s.readOut(v)
		}
	}
	a.program(s, words, lit)
	// A path the segment writes is shown as a write, not also as a read.
	s.ReadsOutside = slices.DeleteFunc(s.ReadsOutside, func(p string) bool { return slices.Contains(s.WritesOutsideTo, p) })
}

// program flags the program of words, looking through wrappers.
func (a *analyzer) program(s *segment, words []string, lit []bool) {
	for len(words) > 0 {
		if !lit[0] {
			s.Opaque = true
			return
		}
		prog := path.Base(words[0])
		if strings.ContainsAny(words[0], "*?[") {
			s.Opaque = true
		}
		switch {
		case elevators[prog]:
			s.Elevates, s.Opaque = true, true
			if prog == "su" || prog == "runuser" {
				a.nested(s, words, "-c")
				return
			}
		case wrappers[prog]:
			s.Opaque = true
			gitEnvWords(s, words[1:])
			if prog == "npx" || prog == "pnpx" || prog == "bunx" || prog == "uvx" || prog == "pipx" {
				s.Network = true
			}
		case shellState[prog]:
			s.Opaque = true
			gitEnvWords(s, words[1:])
			return
		case shells[prog]:
			s.Opaque = true
			a.nested(s, words, "-c")
			return
		case interpreters[prog] || scripting[prog]:
			s.Opaque = true
			a.gitTargets(s, words[1:], lit[1:])
			return
		case prog == "find":
			for _, w := range words[1:] {
				switch w {
				case "-exec", "-execdir", "-ok", "-okdir":
					s.Opaque = true
				case "-delete":
					s.Deletes = true
				case "-fprint", "-fprint0", "-fprintf", "-fls":
					s.WritesOutside = true // cannot tell where: ask
				}
			}
			return
		default:
			a.plainProgram(s, prog, words, lit)
			return
		}
		// Skip the wrapper, its options and assignments, to the command.
		words, lit = words[1:], lit[1:]
		for len(words) > 0 && (strings.HasPrefix(words[0], "-") || strings.Contains(words[0], "=") ||
			isNumberLike(words[0])) {
			words, lit = words[1:], lit[1:]
		}
	}
}

func (a *analyzer) plainProgram(s *segment, prog string, words []string, lit []bool) {
	args := words[1:]
	sub, subAt := subcommand(prog, args)
	s.Destructive = a.destructive(prog, args, sub, subAt)
	if deleters[prog] || prog == "git" && (sub == "clean" || sub == "rm") ||
		prog == "rsync" && slices.ContainsFunc(args, func(w string) bool { return strings.HasPrefix(w, "--delete") }) {
		s.Deletes = true
	}
	if networkers[prog] || slices.Contains(networkSub[prog], sub) {
		s.Network = true
	}
	if prog == "git" && slices.ContainsFunc(args, func(w string) bool { return w == "-c" || strings.HasPrefix(w, "--config-env") }) {
		s.Opaque = true // -c core.pager=… and friends run commands
	}
	if prog == "git" {
		if k, local := gitConfigCode(args, sub, subAt); k != "" {
			s.GitCode = k
			s.WritesGit = s.WritesGit || local // `git config` writes .git/config
		}
	}
	a.gitTargets(s, args, lit[1:])
	if !writers[prog] {
		return
	}
	var targets []int
	for i, w := range args {
		switch {
		case prog == "dd" && strings.HasPrefix(w, "of="):
			if !lit[i+1] {
				s.WritesOutside = true
			} else if a.outside(w[3:]) {
				s.writeOut(w[3:])
			}
		case strings.HasPrefix(w, "--target-directory="):
			if t := strings.TrimPrefix(w, "--target-directory="); a.outside(t) {
				s.writeOut(t)
			}
		case w == "-t" && i+1 < len(args):
			targets = append(targets, i+1)
		case !strings.HasPrefix(w, "-") && prog != "dd":
			targets = append(targets, i)
		}
	}
	if destOnly[prog] && len(targets) > 1 {
		targets = targets[len(targets)-1:]
	}
	if prog == "chmod" || prog == "chown" || prog == "chgrp" {
		if len(targets) > 0 {
			targets = targets[1:] // the mode or owner
		}
	}
	for _, i := range targets {
		if !lit[i+1] {
			if !globNamesGit(s.pattern(args[i])) { // a .git glob is flagged below
				s.WritesOutside = true
			}
		} else if a.outside(args[i]) {
			s.writeOut(args[i])
		}
	}
	// Into .git, every operand counts: `cp -r x/.git .` puts a .git in
	// place as surely as `cp x .git/config` does.
	for i, w := range args {
		if strings.HasPrefix(w, "-") {
			continue
		}
		if lit[i+1] && a.intoGit(strings.TrimPrefix(w, "of=")) || !lit[i+1] && globNamesGit(s.pattern(w)) {
			s.WritesGit = true
		}
	}
}

// gitEnvWords sets s.GitCode when one of words (a wrapper's or export's
// NAME=value words) sets a variable that makes git run code.
func gitEnvWords(s *segment, words []string) {
	for _, w := range words {
		if name, _, ok := strings.Cut(w, "="); ok && gitEnvName(name) && s.GitCode == "" {
			s.GitCode = name
		}
	}
}

// gitTargets flags s as writing into .git when a file it may write points
// there: an operand of sed -i or perl -i, or the value of an output option
// (-o, -O, --output…, of=). git itself writing .git is normal, but not to a
// file named by an output option (git log --output=.git/config).
func (a *analyzer) gitTargets(s *segment, args []string, lit []bool) {
	inPlace := slices.ContainsFunc(args, func(w string) bool {
		return strings.HasPrefix(w, "-i") || strings.HasPrefix(w, "--in-place")
	})
	for i, w := range args {
		if !lit[i] {
			if inPlace && globNamesGit(s.pattern(w)) {
				s.WritesGit = true // sed -i … .g?t/config
			}
			continue
		}
		var target string
		switch {
		case (w == "-o" || w == "-O" || w == "--output" || w == "--output-document" || w == "--out-file") && i+1 < len(args) && lit[i+1]:
			target = args[i+1]
		case strings.HasPrefix(w, "--output") || strings.HasPrefix(w, "--out-file") || strings.HasPrefix(w, "of="):
			if _, v, ok := strings.Cut(w, "="); ok {
				target = v
			}
		case inPlace && !strings.HasPrefix(w, "-"):
			target = w
		}
		if target != "" && a.intoGit(target) {
			s.WritesGit = true
		}
	}
}

// nested parses the script given after flag (`bash -c '…'`) and adds its
// segments, passing their warnings up to s. A shell reading its script
// from stdin or a file stays opaque.
func (a *analyzer) nested(s *segment, words []string, flag string) {
	i := slices.Index(words, flag)
	if i < 0 || i+1 >= len(words) || a.depth >= maxNesting {
		return
	}
	inner := analyzeDepth(words[i+1], a.cwd, a.b, a.depth+1)
	for _, n := range inner.segments {
		s.Deletes = s.Deletes || n.Deletes
		s.Network = s.Network || n.Network
		s.Elevates = s.Elevates || n.Elevates
		s.absorb(&segment{CommandSegment: protocol.CommandSegment{
			WritesOutside: n.WritesOutside, ReadsOutside: n.ReadsOutside, WritesOutsideTo: n.WritesOutsideTo,
		}})
		if s.Destructive == "" {
			s.Destructive = n.Destructive
		}
		a.segs = append(a.segs, &segment{CommandSegment: n, start: s.start, end: s.end})
	}
}

func isNumberLike(w string) bool {
	return w != "" && strings.Trim(w, "0123456789.smhd") == ""
}

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

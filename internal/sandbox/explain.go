package sandbox

import (
	"path/filepath"
	"slices"
	"strings"
)

// Explain says, for the result of a confined command (p nil: an unknown
// policy) whose output is outs, which layer of the sandbox may have refused
// what, and what the user can do about it; restored lists the guarded
// paths put back after it (Guard). "" when nothing in the output looks
// like a refusal. The model reads it; so does the user, on the card.
func Explain(p *Policy, restored []string, outs ...string) string {
	all := strings.Join(outs, "\n")
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(all, w) {
				return true
			}
		}
		return false
	}
	ns := p != nil && p.Namespaces()
	var notes []string
	guarded := has(".git/hooks", ".git/config", ".git/modules", ".git/commondir", ".gatehouse/", "/.envrc", " .envrc", ".vscode/", ".idea/") && has("Read-only file system", "Device or resource busy")
	switch {
	case guarded:
		notes = append(notes, "The sandbox (a read-only mount) refused a change to "+strings.Join(GuardedNames, ", ")+": "+
			"git, Gatehouse and editors run what is written there later, outside the sandbox. Objects, refs and the index stay writable, so "+
			"git add and git commit work; only the user can change hooks or git config, outside Gatehouse (editor settings go through the file tools, which ask).")
	case has(".git") && has("Device or resource busy"):
		notes = append(notes, "The sandbox pins .git (a mount point): it cannot be renamed, moved or replaced by a command.")
	}
	hidden := policyHidden(p, all)
	if hidden != "" {
		notes = append(notes, hidden)
	}
	if has("Read-only file system", "Permission denied", "Operation not permitted", "EACCES", "EPERM", "EROFS") && !guarded && hidden == "" {
		where := "the workspace, the temp folder, the session's scratch folder and Gatehouse's own tool caches (GOCACHE, npm_config_cache, PIP_CACHE_DIR... point there)"
		notes = append(notes, "This command ran confined by the OS sandbox (Landlock): it may write only in "+where+
			"; your home folder, its tool folders and folders on PATH are read-only to it. A \"Permission denied\" above may be the sandbox refusing a write there.")
	}
	if p != nil && len(p.DenyRead) > 0 && mentionsAny(all, p.DenyRead) {
		layer := "hidden by an empty mount"
		if !ns {
			layer = "not granted by Landlock"
		}
		notes = append(notes, "Secrets on the sandbox's deny-read list (keys, credentials, Gatehouse's own settings; the list is in Settings) are "+layer+": a command cannot read them.")
	}
	if p != nil && !p.AllowUnix && has("socket", "ssh-agent", "SSH_AUTH_SOCK", "authentication agent", "D-Bus", "dbus", "docker.sock",
		"Docker daemon", "cannot open display", "Can't open display", "Address family not supported") {
		notes = append(notes, "The sandbox refuses Unix sockets (seccomp): the session bus, ssh-agent, docker and X11 are out of reach, and "+
			"DBUS_SESSION_BUS_ADDRESS, SSH_AUTH_SOCK, DISPLAY and WAYLAND_DISPLAY are removed. The user can allow a socket in Settings (Sandbox, sockets).")
	}
	if p != nil && p.NoNetwork && has("Network is unreachable", "Could not resolve", "Temporary failure in name resolution", "Connection refused",
		"network", "Name or service not known", "ENETUNREACH", "getaddrinfo") {
		layer := "a network namespace with loopback only"
		if !ns {
			layer = "Landlock refuses TCP connect and seccomp every other socket kind"
		}
		if p.NoNetworkWhy != "" {
			notes = append(notes, "The network is off for commands ("+layer+"): TCP, MPTCP and UDP all fail, because "+p.NoNetworkWhy+
				". The user can turn the network on in Settings, or use a newer kernel.")
		} else {
			notes = append(notes, "The network is off for commands ("+layer+"): TCP, MPTCP and UDP all fail. Only the user can turn it on, in Settings.")
		}
	}
	if p != nil && p.ProxyPort != 0 && has("Could not resolve", "Temporary failure in name resolution", "Connection refused", "Permission denied",
		"Operation not permitted", "Name or service not known", "ENETUNREACH", "EAI_AGAIN", "getaddrinfo", "403", "refused") {
		notes = append(notes, "The network is in allow-list mode: commands reach the web only through Gatehouse's proxy ($HTTPS_PROXY, which "+
			"curl, npm, pip, git and go use), to the domains on the user's list; a direct connection (TCP, MPTCP, UDP, DNS) fails. Only the user can allow a domain.")
	}
	if has("kill") && has("Operation not permitted", "No such process") {
		notes = append(notes, "A confined command can signal only its own processes (Landlock signal scoping).")
	}
	if len(restored) > 0 {
		short := make([]string, len(restored))
		for i, r := range restored {
			short[i] = workspaceName(p, r)
		}
		why := "this system has no namespaces to keep them read-only (Landlock alone), so the sandbox put them back as they were."
		if ns {
			why = "they did not exist when it started (a .git it made itself), so no read-only mount could hold them: the sandbox removed them. " +
				"Only the user can add hooks or git config, outside Gatehouse."
		}
		notes = append(notes, "The command changed "+strings.Join(short, ", ")+", which git or Gatehouse would run later outside the sandbox; "+why)
	}
	return strings.Join(notes, " ")
}

// workspaceName names a restored path as a reader can place it: relative
// to the writable folder (the workspace) holding it, like
// .git/hooks/pre-commit; else from its .git on, else in full.
func workspaceName(p *Policy, path string) string {
	best := ""
	if p != nil {
		for _, w := range p.Writable {
			if rel, err := filepath.Rel(w, path); err == nil && rel != "." && !strings.HasPrefix(rel, "..") && (best == "" || len(rel) < len(best)) {
				best = rel
			}
		}
	}
	if best != "" {
		return filepath.ToSlash(best)
	}
	slashed := filepath.ToSlash(path)
	if i := strings.LastIndex(slashed, "/.git/"); i >= 0 {
		return slashed[i+1:]
	}
	return slashed
}

// namesWord reports whether out names name as a whole path segment
// ('config', config/x, "a b/config: ..."), not inside another word.
func namesWord(out, name string) bool {
	sep := func(r byte) bool { return strings.IndexByte(" \t\n'\"`/:", r) >= 0 }
	for i := 0; ; {
		j := strings.Index(out[i:], name)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(name)
		if (j == 0 || sep(out[j-1])) && (end == len(out) || sep(out[end])) {
			return true
		}
		i = j + 1
	}
}

func mentionsAny(out string, paths []string) bool {
	for _, p := range paths {
		b := filepath.Base(p)
		if strings.Contains(out, p) || strings.HasPrefix(b, ".") && strings.Contains(out, "/"+b+"/") {
			return true
		}
	}
	return false
}

// policyHidden explains a failure on a path the user's policy denies
// reading, hidden by the sandbox ("" when out names none or shows no
// refusal): reading, copying, removing or stashing it fails.
func policyHidden(p *Policy, out string) string {
	if p == nil || len(p.PolicyDenied) == 0 {
		return ""
	}
	// What reading, removing or stashing the empty mount says (git sees a
	// device where the file was: "unsupported file type").
	refused := false
	for _, w := range []string{"Permission denied", "Device or resource busy", "Read-only file system", "Operation not permitted",
		"unsupported file type", "Unable to process path"} {
		refused = refused || strings.Contains(out, w)
	}
	if !refused {
		return ""
	}
	var named []string
	for _, d := range p.PolicyDenied {
		if b := filepath.Base(d); strings.Contains(out, b) {
			named = append(named, b)
		}
	}
	var folders []string
	if strings.Contains(out, "Device or resource busy") {
		for _, d := range above(p.PolicyDenied, p.Writable) {
			if b := filepath.Base(d); namesWord(out, b) && !slices.Contains(folders, b) {
				folders = append(folders, b)
			}
		}
	}
	if len(folders) > 0 {
		return "The folder " + strings.Join(folders, ", ") + " holds a file your policy denies reading (read deny: " + strings.Join(p.DenyGlobs, ", ") +
			"): the sandbox pins it (a mount point), so a command cannot rename, move or remove it and carry the file out from under the rule. " +
			"Leave it where it is; only the user can change the rule (the Policy page)."
	}
	if len(named) == 0 {
		return ""
	}
	return "Your policy denies reading " + strings.Join(named, ", ") + " (read deny: " + strings.Join(p.DenyGlobs, ", ") +
		"): the sandbox hides it from commands behind an empty mount that cannot be read, copied, removed, renamed or written, " +
		"so `cat`, `cp`, `rm` of it and `git stash -u` (when it is untracked) fail. Leave it alone; only the user can change the rule (the Policy page)."
}

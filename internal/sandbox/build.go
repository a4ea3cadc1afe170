package sandbox

import (
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Spec is what the app knows when it builds a policy.
type Spec struct {
	Workspace string // the folder the command may change (its roots)
	Scratch   string // a per-session scratch folder, "" for none
	Home      string // "" for none
	Env       []string
	NoNetwork bool
	// ProxyPort and OpenNet, in the network's allow-list mode: the app's
	// filtering proxy (Policy.ProxyPort). A kernel without Landlock's TCP
	// rule (ABI < 4) gets no network instead, unless the session's network
	// namespace holds the allow-list (namespaces, nsenter and ServeProxy).
	ProxyPort int
	OpenNet   func() NetCall
	// ServeProxy serves the proxy on another listener (Policy.ServeProxy).
	ServeProxy func(net.Listener)
	// DataDir is Gatehouse's data folder: confined commands get their tool
	// caches below DataDir/cache (Caches), and cannot read the rest of it
	// (other sessions) but for Scratch. "": no caches of their own.
	DataDir string
	// ConfigDir is Gatehouse's settings folder (settings, saved key, trust
	// store): never readable.
	ConfigDir string
	// DenyRead is the user's deny-read list ("~/" is the home folder); nil:
	// DefaultDenyRead.
	DenyRead []string
	// DenyGlobs are the path globs, relative to Workspace, the user's
	// standing policy denies reading (policy.ReadDenies): matched when the
	// policy is built, and hidden as DenyRead is where the layers can.
	DenyGlobs []string
	// AllowSockets lists the Unix sockets (or folders of sockets) the user
	// lets commands reach ("$NAME" is the path in variable NAME, e.g.
	// $SSH_AUTH_SOCK).
	AllowSockets []string
	// Layers are those this system has (Detect).
	Layers Layers
}

// DefaultDenyRead are the secrets no confined command reads: keys,
// credentials, browser profiles, keyrings.
var DefaultDenyRead = []string{
	"~/.ssh", "~/.gnupg", "~/.aws", "~/.azure", "~/.config/gcloud", "~/.kube",
	"~/.docker/config.json", "~/.netrc", "~/.git-credentials", "~/.config/git/credentials",
	"~/.password-store", "~/.local/share/keyrings", "~/.pki", "~/.config/gh", "~/.config/hub",
	"~/.cargo/credentials.toml", "~/.cargo/credentials", "~/.pypirc", "~/.vault-token",
	"~/.mozilla", "~/.thunderbird", "~/.config/google-chrome", "~/.config/chromium",
	"~/.config/BraveSoftware", "~/.config/microsoft-edge", "~/.config/vivaldi", "~/.config/opera",
	"~/snap/firefox", "~/snap/chromium",
	// Registry tokens, other clouds' and tools' credentials, wallets.
	"~/.npmrc", "~/.yarnrc.yml", "~/.gem/credentials", "~/.config/glab-cli", "~/.config/op", "~/.config/rclone",
	"~/.s3cfg", "~/.boto", "~/.oci", "~/.config/doctl", "~/.config/hcloud", "~/.terraform.d/credentials.tfrc.json",
	"~/.databrickscfg", "~/.local/share/kwalletd", "~/.kde/share/apps/kwallet",
	// Shell and REPL histories: commands typed with their tokens.
	"~/.bash_history", "~/.zsh_history", "~/.local/share/fish/fish_history", "~/.python_history", "~/.node_repl_history",
	"~/.psql_history", "~/.mysql_history", "~/.sqlite_history", "~/.lesshst",
}

// Build returns the policy of a command: writes in the workspace, temp,
// scratch and Gatehouse's caches; reads everywhere but the deny list;
// .git's code paths read-only; sockets and network as the spec says.
func Build(s Spec) Policy {
	var p Policy
	p.NoNetwork, p.Home = s.NoNetwork, s.Home
	if s.ProxyPort != 0 && !p.NoNetwork {
		if s.Layers.ABI >= NetABI || s.Layers.Namespaces() && s.Layers.Nsenter != "" && s.ServeProxy != nil {
			p.ProxyPort, p.OpenNet, p.ServeProxy = s.ProxyPort, s.OpenNet, s.ServeProxy
		} else {
			p.NoNetwork, p.NoNetworkWhy = true, NoTCPRule(s.Layers.ABI)
		}
	}
	tmp := TempDir(s.Env)
	w := []string{s.Workspace, tmp, s.Scratch}
	linked, isLinked := linkedWorktree(s.Workspace)
	if isLinked {
		w = append(w, linked.writable()...)
	}
	caches := Caches(s.DataDir)
	for _, c := range caches {
		w = append(w, c.Dir)
	}
	p.Writable = cleanAbs(w)
	p.DenyRead = existing(denyList(s))
	p.DenyList = s.DenyRead
	if len(s.DenyGlobs) > 0 {
		p.DenyGlobs = s.DenyGlobs
		roots := []string{s.Workspace}
		if isLinked { // the main checkout seen from a worktree session
			roots = append(roots, linked.checkouts()...)
		}
		p.PolicyDenied, p.Unhidden, p.GlobsPartial = policyDenies(roots, s.DenyGlobs, existing(p.Writable), s.Layers.Namespaces())
		p.DenyRead = existing(append(p.DenyRead, p.PolicyDenied...))
	}
	if p.DenyList == nil {
		p.DenyList = DefaultDenyRead
	}
	p.ReadBack = readBack(s, p.DenyRead)
	p.SetEnv, p.UnsetEnv = envEdits(s, caches)
	allowed := allowedSockets(s)
	p.AllowUnix = len(allowed) > 0
	if s.Layers.Namespaces() {
		p.Bwrap, p.Nsenter = s.Layers.Bwrap, s.Layers.Nsenter
		p.HideSockets = existing(removeAll(socketPlaces(s), allowed))
		if tmp == "/tmp" && s.Scratch != "" {
			p.PrivateTmp = filepath.Join(s.Scratch, "tmp")
		}
	}
	pinned, guards := workspaceGuards(s.Workspace, s.Layers.Namespaces())
	if isLinked {
		lp, lro := linked.guards()
		pinned, guards = append(pinned, existing(lp)...), append(guards, lro...)
	}
	if !s.Layers.Namespaces() {
		p.ReadRoots = append(ReadGrants(p.DenyRead), p.ReadBack...)
		p.Guarded = cleanAbs(guards) // put back after each command
	} else {
		// What exists is mounted read-only; what does not (a .git the
		// command makes itself) cannot be, and is removed after it.
		p.Pinned = append(pinned, above(p.PolicyDenied, existing(p.Writable))...)
		var missing []string
		for _, g := range guards {
			if _, err := os.Lstat(g); err == nil {
				p.ReadOnly = append(p.ReadOnly, g)
			} else {
				missing = append(missing, g)
			}
		}
		p.Guarded = cleanAbs(missing)
	}
	return p
}

// SkillsDir is the folder of the user's skills in Gatehouse's config
// folder: the one part of it commands may read (skills.UserDir).
func SkillsDir(configDir string) string { return filepath.Join(configDir, "skills") }

// readBack is the user's skills folder when it is a real folder (not a
// link, whose target could be anything) and no deny entry of the user's
// covers it.
func readBack(s Spec, deny []string) []string {
	if s.ConfigDir == "" {
		return nil
	}
	d := filepath.Clean(SkillsDir(s.ConfigDir))
	if fi, err := os.Lstat(d); err != nil || !fi.IsDir() {
		return nil
	}
	for _, x := range deny {
		if Within(d, x) && x != filepath.Clean(s.ConfigDir) || Within(x, d) {
			return nil // covered by the user's own deny, or holding one
		}
	}
	return []string{d}
}

// NoTCPRule says why the allow-list mode gives no network with Landlock
// ABI abi (Policy.NoNetworkWhy).
func NoTCPRule(abi int) string {
	return "the allow-list needs Landlock's TCP rule (ABI " + strconv.Itoa(NetABI) + ", Linux 6.7) or namespaces with nsenter; this kernel's Landlock has ABI " +
		strconv.Itoa(abi) + ", so commands get no network at all (web_fetch still follows the list)"
}

// NetABI is the first Landlock ABI with TCP connect rules (Linux 6.7).
const NetABI = 4

// TempDir is $TMPDIR of env, else /tmp.
func TempDir(env []string) string {
	if t := getenv(env, "TMPDIR"); t != "" {
		return t
	}
	return "/tmp"
}

// HomeDir is $HOME, else os.UserHomeDir.
func HomeDir(env []string) string {
	if h := getenv(env, "HOME"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}

// denyList is the spec's deny list with ~ expanded, plus Gatehouse's
// settings and data folders (the policy's writable parts of it are mounted
// back).
func denyList(s Spec) []string {
	list := s.DenyRead
	if list == nil {
		list = DefaultDenyRead
	}
	var out []string
	for _, d := range list {
		if rest, ok := strings.CutPrefix(d, "~/"); ok {
			if s.Home == "" {
				continue
			}
			d = filepath.Join(s.Home, rest)
		}
		out = append(out, d)
	}
	out = append(out, s.ConfigDir, s.DataDir)
	return cleanAbs(out)
}

// workspaceGuards lists what stays read-only inside the workspace,
// whether it exists or not (a command may make it): .git is pinned when it
// is a folder (bound onto itself, so `mv .git x` fails), its hooks and
// config are guarded (also when there is no .git yet: `git init && echo
// evil > .git/hooks/pre-commit` is one command), a gitfile is guarded, as
// are .gatehouse/ and .envrc. So are git's other code paths: commondir
// (which would send git to a config elsewhere) and the submodules' git
// folders in .git/modules (their hooks and config run when git recurses
// into a submodule; whole with namespaces, each one's hooks, config and
// commondir with Landlock alone, which puts back files, not folders), and
// the editors' folders whose tasks run when the folder is opened (.vscode,
// .idea). The file tools still change those, through the dialog.
func workspaceGuards(ws string, namespaces bool) (pinned, guards []string) {
	if ws == "" {
		return nil, nil
	}
	git := filepath.Join(ws, ".git")
	fi, err := os.Lstat(git)
	code := func() []string {
		out := []string{filepath.Join(git, "hooks"), filepath.Join(git, "config"), filepath.Join(git, "commondir")}
		modules := filepath.Join(git, "modules")
		if _, err := os.Lstat(modules); namespaces || err != nil {
			return append(out, modules)
		}
		return append(out, moduleCodePaths(modules)...)
	}
	switch {
	case err == nil && fi.IsDir():
		// A hooks folder to mount read-only (git init makes one anyway).
		os.Mkdir(filepath.Join(git, "hooks"), 0o755)
		pinned = append(pinned, git)
		guards = append(guards, code()...)
	case err == nil:
		guards = append(guards, git) // a gitfile: where the repository is
	default:
		guards = append(guards, code()...)
	}
	for _, n := range []string{".gatehouse", ".envrc", ".vscode", ".idea"} {
		guards = append(guards, filepath.Join(ws, n))
	}
	if hooks := hooksPath(filepath.Join(git, "config")); hooks != "" {
		// core.hooksPath naming a folder of the workspace (husky's .husky):
		// git runs the hooks there, as those of .git/hooks.
		if !filepath.IsAbs(hooks) {
			hooks = filepath.Join(ws, hooks)
		}
		if hooks = filepath.Clean(hooks); Within(hooks, ws) && hooks != ws {
			guards = append(guards, hooks)
		}
	}
	return pinned, guards
}

// hooksPath reads core.hooksPath from the git config file at path ("" when
// unset or unreadable): the last one in a [core] section wins, as in git.
func hooksPath(path string) string {
	b, err := os.ReadFile(path)
	if err != nil || len(b) > 1<<20 {
		return ""
	}
	section, value := "", ""
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			name, _, _ := strings.Cut(strings.Trim(line, "[] \t"), " ")
			section = strings.ToLower(name)
			continue
		}
		key, v, ok := strings.Cut(line, "=")
		if ok && section == "core" && strings.EqualFold(strings.TrimSpace(key), "hookspath") {
			v = strings.TrimSpace(v)
			if i := strings.IndexAny(v, "#;"); i >= 0 && !strings.HasPrefix(v, "\"") {
				v = strings.TrimSpace(v[:i])
			}
			value = strings.Trim(v, "\"")
		}
	}
	return value
}

// moduleCodePaths are the hooks, config and commondir of every git folder
// below modules (a submodule's, nested ones too).
func moduleCodePaths(modules string) []string {
	var out []string
	filepath.WalkDir(modules, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		switch d.Name() {
		case "objects", "refs", "logs", "hooks", "info", "lfs":
			return filepath.SkipDir // nothing of a git folder's own below
		}
		if _, err := os.Stat(filepath.Join(p, "HEAD")); err == nil {
			out = append(out, filepath.Join(p, "hooks"), filepath.Join(p, "config"), filepath.Join(p, "commondir"))
		}
		return nil
	})
	return out
}

// GuardedNames are the workspace paths kept read-only, for the UI.
var GuardedNames = []string{".git/hooks", ".git/config", ".git/modules", ".gatehouse/", ".envrc", ".vscode/", ".idea/"}

// socketPlaces are where the sockets of the user's session live: the
// runtime folder (session bus, Wayland, pipewire, gpg-agent), the ssh
// agent's folder, X11, the system bus, docker.
func socketPlaces(s Spec) []string {
	out := []string{"/tmp/.X11-unix", "/tmp/.ICE-unix", "/run/dbus", "/var/run/dbus", "/run/docker.sock", "/var/run/docker.sock",
		"/run/user/" + strconv.Itoa(os.Getuid())}
	if r := getenv(s.Env, "XDG_RUNTIME_DIR"); r != "" {
		out = append(out, r)
	}
	if a := getenv(s.Env, "SSH_AUTH_SOCK"); a != "" {
		out = append(out, filepath.Dir(a))
	}
	if s.Home != "" {
		out = append(out, filepath.Join(s.Home, ".docker/run"))
	}
	return cleanAbs(out)
}

// allowedSockets expands the spec's socket allow-list.
func allowedSockets(s Spec) []string {
	var out []string
	for _, a := range s.AllowSockets {
		if name, ok := strings.CutPrefix(a, "$"); ok {
			a = getenv(s.Env, name)
		}
		out = append(out, a)
	}
	return cleanAbs(out)
}

// removeAll drops from places those an allowed socket is in (the allowed
// socket's folder is then visible whole: say so in the UI).
func removeAll(places, allowed []string) []string {
	return slices.DeleteFunc(places, func(p string) bool {
		for _, a := range allowed {
			if Within(a, p) || Within(p, a) {
				return true
			}
		}
		return false
	})
}

// envEdits are the environment changes of a confined command: its tool
// caches are Gatehouse's, and the variables naming sockets it cannot reach
// are removed (a tool then says "no agent" rather than failing oddly).
func envEdits(s Spec, caches []Cache) (set, unset []string) {
	for _, c := range caches {
		for _, v := range c.Vars {
			set = append(set, v+"="+c.Dir)
		}
	}
	if len(caches) > 0 {
		// Go seeds its own cache from the user's (read-only) download cache.
		proxy := getenv(s.Env, "GOPROXY")
		if proxy == "" {
			proxy = defaultGoProxy
		}
		if mod := userGoModCache(s); mod != "" && proxy != "off" {
			proxy = "file://" + filepath.Join(mod, "cache", "download") + "," + proxy
		}
		set = append(set, "GOPROXY="+proxy, "GOFLAGS="+strings.TrimSpace(getenv(s.Env, "GOFLAGS")+" -modcacherw"))
	}
	allowed := allowedSockets(s)
	reach := func(path string) bool {
		for _, a := range allowed {
			if Within(path, a) {
				return true
			}
		}
		return false
	}
	keep := map[string]bool{
		"SSH_AUTH_SOCK":            reach(getenv(s.Env, "SSH_AUTH_SOCK")),
		"DBUS_SESSION_BUS_ADDRESS": reach(strings.TrimPrefix(strings.SplitN(getenv(s.Env, "DBUS_SESSION_BUS_ADDRESS"), ",", 2)[0], "unix:path=")),
		"DISPLAY":                  reach("/tmp/.X11-unix"),
		"WAYLAND_DISPLAY":          reach(filepath.Join(getenv(s.Env, "XDG_RUNTIME_DIR"), getenv(s.Env, "WAYLAND_DISPLAY"))),
		"XDG_RUNTIME_DIR":          reach(getenv(s.Env, "XDG_RUNTIME_DIR")),
	}
	for _, n := range []string{"DBUS_SESSION_BUS_ADDRESS", "SSH_AUTH_SOCK", "DISPLAY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR"} {
		if !keep[n] {
			unset = append(unset, n)
		}
	}
	return set, unset
}

// defaultGoProxy is Go's own default GOPROXY (go help environment).
const defaultGoProxy = "https://proxy.golang.org,direct"

// userGoModCache is the user's Go module cache, read-only to commands.
func userGoModCache(s Spec) string {
	if m := getenv(s.Env, "GOMODCACHE"); m != "" {
		return m
	}
	if gp := getenv(s.Env, "GOPATH"); gp != "" {
		return filepath.Join(filepath.SplitList(gp)[0], "pkg", "mod")
	}
	if s.Home != "" {
		return filepath.Join(s.Home, "go", "pkg", "mod")
	}
	return ""
}

// Within reports whether p is dir or below it.
func Within(p, dir string) bool {
	if p == "" || dir == "" {
		return false
	}
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel)
}

func cleanAbs(in []string) []string {
	var out []string
	for _, d := range in {
		if d == "" || !filepath.IsAbs(d) {
			continue
		}
		d = filepath.Clean(d)
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// existing keeps the paths of in that exist, symbolic links resolved (a
// mount goes on the real path; Landlock sees real paths), each once.
func existing(in []string) []string {
	var out []string
	for _, p := range in {
		if r, err := filepath.EvalSymlinks(p); err == nil && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

// CleanList checks a list the user edits: each entry absolute, or below the
// home folder ("~/..."), or (vars) a variable naming a path ("$NAME");
// blank lines dropped, each entry once.
func CleanList(in []string, vars bool) ([]string, error) {
	out := []string{}
	for _, e := range in {
		e = strings.TrimSpace(e)
		switch {
		case e == "":
			continue
		case strings.HasPrefix(e, "~/") || filepath.IsAbs(e):
		case vars && strings.HasPrefix(e, "$") && len(e) > 1:
		default:
			return nil, fmt.Errorf("%q is not an absolute path or ~/path", e)
		}
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out, nil
}

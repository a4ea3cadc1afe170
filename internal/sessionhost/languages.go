package sessionhost

import (
	"strings"

	"gatehouse/internal/lsp"
	"gatehouse/internal/sandbox"
	"gatehouse/internal/settings"
)

// languages is a session's language servers (per session: they start on
// first need and stop when it closes): the built-in ones found on PATH and
// the settings' "languageServers". They run the workspace's code (tsserver
// plugins, go list), so they run as its own MCP servers do, under the
// supervisor helper and confined to the workspace (in untrusted folders
// too), their environment without API keys, and the read denies of the
// standing policy hidden from them as from commands (those of the policy
// when the session's first server starts). Go reads the user's module
// cache read-only (GOMODCACHE, nothing downloaded: GOPROXY=off) and
// builds into the sandbox's own writable GOCACHE. Where nothing can
// confine them none starts: the panel and each edit's result say why.
func (h *Host) languages(root string, set settings.Settings) (*lsp.Manager, func()) {
	env := h.env.ProcEnv()
	helper := &lsp.Helper{}
	// confine is the confinement a server starts under now: the policy is
	// built again at each start and compared before each use (Walls), so
	// a deny added while a server runs, or a denied file made since, is
	// hidden from it too: it is restarted.
	confine := func() (*sandbox.Policy, string, string) {
		path, policy, reason := h.cmds.Confinement(root, env, h.SandboxFor(root)())
		if path == "" || policy == nil {
			return nil, "", "language servers run only confined by the sandbox, and it is not available: " + reason
		}
		p := *policy
		p.SetEnv = readOnlyModules(p.SetEnv, sandbox.UserGoModCache(env))
		return &p, path, ""
	}
	m := lsp.New(lsp.Options{Root: root, Servers: LanguageConfigs(set.LanguageServers), Env: h.env.ProcEnv,
		Launch: func(argv, env []string, dir string) (lsp.Launched, error) {
			p, path, why := confine()
			if why != "" {
				return lsp.Launched{}, lspError(why)
			}
			l, err := helper.LaunchWith(path, p, argv, env, dir)
			l.Walls = p.Walls()
			return l, err
		},
		Walls: func() string {
			p, _, _ := confine()
			return p.Walls()
		}})
	return m, func() { m.Close(); helper.Close() }
}

// LanguageConfigs are the language servers of the settings' block: the
// built-in ones with the user's entries over them (lsp.Merge).
func LanguageConfigs(user map[string]settings.LanguageServer) []lsp.ServerConfig {
	return lsp.Merge(lsp.Defaults(), userConfigs(user))
}

func userConfigs(user map[string]settings.LanguageServer) map[string]lsp.ServerConfig {
	out := map[string]lsp.ServerConfig{}
	for name, s := range user {
		out[name] = lsp.ServerConfig{Command: s.Command, Args: s.Args, Patterns: s.FilePatterns, RootMarkers: s.RootMarkers,
			Env: s.Env, Options: s.InitializationOptions, Disabled: s.Disabled}
	}
	return out
}

// CheckLanguageServer says why the user's entry of name cannot be saved:
// its shape (settings.ValidateLanguageServer), then whether it can run.
func CheckLanguageServer(name string, s settings.LanguageServer) error {
	if err := settings.ValidateLanguageServer(name, s); err != nil {
		return err
	}
	return lsp.CheckConfig(name, userConfigs(map[string]settings.LanguageServer{name: s})[name])
}

type lspError string

func (e lspError) Error() string { return string(e) }

// readOnlyModules points Go at the user's module cache instead of the
// sandbox's writable one, with no download: a language server only reads
// modules, and the first load does not copy every module again.
func readOnlyModules(set []string, userCache string) []string {
	if userCache == "" {
		return set
	}
	out := make([]string, 0, len(set)+2)
	for _, kv := range set {
		if strings.HasPrefix(kv, "GOMODCACHE=") || strings.HasPrefix(kv, "GOPROXY=") || strings.HasPrefix(kv, "GOFLAGS=") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "GOMODCACHE="+userCache, "GOPROXY=off")
}

package agents

import (
	"path/filepath"

	"gatehouse/internal/hooks"
)

// childHooks returns the hooks of d's children, asked before each run
// (runtime.Options.AgentHooks; nil: none). A user's definition's run as
// the user's hooks do. A workspace's definition's run only as the user
// trusted them for hooks (trust.KindHooks, in Config.HookTrust), read
// from those trusted bytes before every run, and confined: none while
// they, or a script they name, are not trusted as they are now.
func (m *Manager) childHooks(d Definition) func() []hooks.Hook {
	if d.workspace != "" {
		rel, err := filepath.Rel(d.workspace, d.Source)
		if m.cfg.HookTrust == nil || err != nil {
			return nil
		}
		w := &hooks.Workspace{Root: d.workspace, Trust: m.cfg.HookTrust}
		rel = filepath.ToSlash(rel)
		return func() []hooks.Hook { return w.Agent(rel) }
	}
	if len(d.Hooks) == 0 {
		return nil
	}
	hs := d.Hooks
	return func() []hooks.Hook { return hs }
}

package agents

import (
	"gatehouse/internal/agent"
	"gatehouse/internal/proc"
	"gatehouse/internal/runtime"
	"gatehouse/internal/session"
	"gatehouse/internal/trust"
)

// HostOptions is what a host gives Setup.
type HostOptions struct {
	// ConfigDir is the user's config folder (its agents/ is read).
	ConfigDir string
	// Trusted returns the workspace's trusted definitions content (see
	// LoadOptions.Trusted; nil: they do not load).
	Trusted func(workspace string) *trust.Content
	// Past is the session being resumed (its children list as ended).
	Past *session.Loaded
	// Models gives a definition's model by name (nil: none).
	Models func(name string) (agent.Model, error)
	// Processes configures each child's process registry.
	Processes proc.Options
	// HookTrust is where a workspace's hooks are trusted (Config.HookTrust).
	HookTrust *trust.Store
}

// Setup loads the definitions for s's workspace and attaches a Manager; a
// definition that does not parse is left out and returned beside it.
func Setup(s *runtime.Session, o HostOptions) (*Manager, []error) {
	defs, errs := Load(LoadOptions{UserDir: o.ConfigDir, Workspace: s.Workspace().Root(), Trusted: o.Trusted})
	m, err := Attach(s, Config{Definitions: defs, Models: o.Models, Processes: o.Processes, HookTrust: o.HookTrust})
	if err != nil {
		return nil, append(errs, err)
	}
	m.Restore(o.Past)
	return m, errs
}

// Reload loads the definitions for the session's workspace again (after
// the user trusted its folder, say) and offers them from the next model
// request on.
func (m *Manager) Reload(o HostOptions) []error {
	defs, errs := Load(LoadOptions{UserDir: o.ConfigDir, Workspace: m.parent.Workspace().Root(), Trusted: o.Trusted})
	m.SetDefinitions(defs)
	return errs
}

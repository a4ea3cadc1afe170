package sessionhost

import (
	"os"

	"gatehouse/internal/settings"
	"gatehouse/internal/skills"
	"gatehouse/internal/trust"
	"gatehouse/internal/workspace"
)

// SkillOptions are where the sessions of a workspace find their skills:
// the user's folders, and the workspace's once trusted.
func (h *Host) SkillOptions(root string, set settings.Settings) skills.Options {
	home, _ := os.UserHomeDir()
	o := skills.Options{Home: home, ConfigDir: h.env.ConfigDir, Workspace: root, Claude: set.SkillsClaude, Disabled: set.SkillsOff}
	if h.env.ConfigDir != "" {
		o.Trust = trust.NewStore(h.env.ConfigDir)
	}
	return o
}

// skills is the session's catalog, and its boundary: ws with the folders
// of the offered skills from outside the workspace as read-only roots (a
// folder that went away meanwhile is left out).
func (h *Host) skills(ws *workspace.Workspace, set settings.Settings) (*skills.Catalog, *workspace.Workspace) {
	cat := skills.NewCatalog(h.SkillOptions(ws.Root(), set))
	with := ws
	for _, r := range cat.Set().ReadOnlyRoots() {
		if n, err := with.WithReadOnly(r); err == nil {
			with = n
		} else {
			h.o.Logger.Warn("skill folder left out of the session's roots", "err", err)
		}
	}
	cat.Rel = with.Rel
	return cat, with
}

package sessionhost

import (
	"os"

	"gatehouse/internal/runtime"
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
// of the offered skills from outside the workspace as live read-only
// roots, kept equal to the catalog's as it is discovered again (a folder
// the user creates mid-session joins, one turned off leaves; a folder that
// went away meanwhile is left out).
func (h *Host) skills(ws *workspace.Workspace, set settings.Settings) (*skills.Catalog, *workspace.Workspace) {
	cat := skills.NewCatalog(h.SkillOptions(ws.Root(), set))
	with := ws.WithLiveReadOnly()
	cat.OnRoots(func(roots []string) {
		if err := with.SetLiveReadOnly(roots...); err != nil {
			h.o.Logger.Warn("skill folder left out of the session's roots", "err", err)
		}
	})
	cat.Rel = with.Rel
	return cat, with
}

// refreshSkills has the session's catalog looked at again before each
// model request (skills.Catalog.Refresh: cheap when nothing changed), so
// what that request offers is what is on disk and trusted now.
func refreshSkills(s *runtime.Session, cat *skills.Catalog) {
	s.AddNotes(func() []string {
		cat.Refresh()
		return nil
	})
}

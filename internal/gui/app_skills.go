package gui

import (
	"slices"

	"errors"
	"fmt"
	"gatehouse/internal/settings"
	"gatehouse/internal/slash"

	"gatehouse/internal/skills"
	"gatehouse/internal/trust"
)

// SkillsView is Settings → Skills: every skill found for the open
// workspace with its source, validity, warnings and whether it is on, and
// the workspace's skills waiting for the user's trust.
type SkillsView struct {
	Skills []skills.Skill `json:"skills"`
	// Claude: ~/.claude/skills is a source (off by default).
	Claude bool `json:"claude"`
	// Pending is the workspace's skill files to trust (nil: nothing asks).
	Pending *trust.Content `json:"pending"`
}

// Skills lists the skills as a session of the open workspace finds them
// now (read again on every call).
func (a *App) Skills() SkillsView {
	eff := a.effective().Settings
	set := skills.Discover(a.kit.SkillOptions(a.workspaceRoot(), eff))
	return SkillsView{Skills: set.Skills, Pending: set.Waiting, Claude: eff.SkillsClaude}
}

// SkillsTrustWorkspace trusts the workspace's skills as the prompt showed
// them (hash): the open session offers them from its next model request.
func (a *App) SkillsTrustWorkspace(hash string) error {
	root := a.workspaceRoot()
	if root == "" {
		return errors.New("no workspace is open")
	}
	err := trust.NewStore(a.store.Dir()).TrustShown(root, trust.KindSkills, hash)
	if errors.Is(err, trust.ErrChanged) {
		return errors.New("the workspace's skills changed since they were shown; look at them again")
	}
	if err != nil {
		return err
	}
	if s := a.currentSession(); s != nil {
		if c := skills.Of(s.Providers()); c != nil {
			c.Reload()
		}
	}
	return nil
}

// skillEntries are the offered skills as "/" entries (after the
// built-ins, the user's and the workspace's commands, which win a name):
// /name sends the message with the skill loaded.
func (a *App) skillEntries() ([]slash.Command, []error) {
	var c *skills.Catalog
	if s := a.currentSession(); s != nil {
		c = skills.Of(s.Providers())
	}
	var offered []skills.Skill
	if c != nil {
		c.Refresh() // the menu shows what the next request offers
		offered = c.Set().Offered()
	} else {
		offered = skills.Discover(a.kit.SkillOptions(a.workspaceRoot(), a.effective().Settings)).Offered()
	}
	out := make([]slash.Command, 0, len(offered))
	for _, k := range offered {
		name := k.Name
		out = append(out, slash.Command{Name: name, Description: k.Description, Origin: slash.Skill, Source: "skill " + k.Dir,
			Expand: func(args string) (string, error) {
				s, err := a.session()
				if err != nil {
					return "", err
				}
				cat := skills.Of(s.Providers())
				if cat == nil {
					return "", fmt.Errorf("no skill /%s", name)
				}
				msg, _, err := cat.UserPrompt(name, args)
				return msg, err
			}})
	}
	return out, nil
}

// SetSkillOn turns the skill name on or off (saved; the open session
// offers it, or stops offering it, from its next model request).
func (a *App) SetSkillOn(name string, on bool) (SkillsView, error) {
	err := a.store.Update(func(s *settings.Settings) {
		s.SkillsOff = slices.DeleteFunc(s.SkillsOff, func(n string) bool { return n == name })
		if !on {
			s.SkillsOff = append(s.SkillsOff, name)
		}
	})
	if err != nil {
		return SkillsView{}, err
	}
	a.reconfigureSkills()
	return a.Skills(), nil
}

// SetSkillsClaude adds or removes Claude Code's ~/.claude/skills as a
// source (saved; counted as SetSkillOn is).
func (a *App) SetSkillsClaude(on bool) (SkillsView, error) {
	if err := a.store.Update(func(s *settings.Settings) { s.SkillsClaude = on }); err != nil {
		return SkillsView{}, err
	}
	a.reconfigureSkills()
	return a.Skills(), nil
}

// reconfigureSkills gives the open session's catalog the saved choices.
func (a *App) reconfigureSkills() {
	s := a.currentSession()
	if s == nil {
		return
	}
	if c := skills.Of(s.Providers()); c != nil {
		set := a.effective().Settings
		c.Configure(set.SkillsClaude, set.SkillsOff)
	}
}

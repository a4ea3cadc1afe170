package gui

import (
	"slices"

	"errors"
	"fmt"
	"gatehouse/internal/settings"
	"gatehouse/internal/usercmd"

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

// RunSkill sends text with the skill name loaded (the composer's /name):
// its instructions go with the message the first time this session.
func (a *App) RunSkill(name, text string) (SubmitResult, error) {
	s, err := a.session()
	if err != nil {
		return SubmitResult{}, err
	}
	c := skills.Of(s.Providers())
	if c == nil {
		return SubmitResult{}, fmt.Errorf("no skill /%s", name)
	}
	msg, _, err := c.UserPrompt(name, text)
	if err != nil {
		return SubmitResult{}, err
	}
	return a.Submit(msg)
}

// skillSource starts the Source of a skill's "/" entry.
const skillSource = "skill "

// withSkills appends the offered skills to the "/" menu after the
// commands: a built-in, then a user's command, wins a name; the shadowed
// skill is listed after it, saying so (usercmd.Find takes the first).
func (a *App) withSkills(cmds []usercmd.Command) []usercmd.Command {
	var builtins, own []string
	for _, c := range cmds {
		if c.Source == "built-in" {
			builtins = append(builtins, c.Name)
		} else {
			own = append(own, c.Name)
		}
	}
	var offered []skills.Skill
	if s := a.currentSession(); s != nil {
		if c := skills.Of(s.Providers()); c != nil {
			offered = c.Set().Offered()
		}
	} else {
		offered = skills.Discover(a.kit.SkillOptions(a.workspaceRoot(), a.effective().Settings)).Offered()
	}
	for _, e := range skills.Slash(builtins, own, offered) {
		src := skillSource + e.Dir
		if e.ShadowedBy != "" {
			src += " (shadowed by " + e.ShadowedBy + ")"
		}
		cmds = append(cmds, usercmd.Command{Name: e.Name, Description: e.Description, Source: src})
	}
	return cmds
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

package sessionhost

import (
	"errors"

	"gatehouse/internal/settings"
	"gatehouse/internal/team"
	"gatehouse/internal/trust"
)

// Teams is the session's agent team, nil while teams are off.
func (s *Session) Teams() *team.Team {
	s.teamMu.Lock()
	defer s.teamMu.Unlock()
	return s.team
}

// EnableTeams turns agent teams on for the session (the team tools join
// the lead's surface from its next model request), with the bounds of the
// settings in effect; on again, it returns the team it has.
func (s *Session) EnableTeams() (*team.Team, error) {
	s.teamMu.Lock()
	defer s.teamMu.Unlock()
	if s.team != nil {
		return s.team, nil
	}
	if s.Agents == nil {
		return nil, errors.New("teams need the session's agents, which could not be set up")
	}
	var err error
	if team.WasOn(s.Past) {
		s.team, err = team.Resume(s.Session, s.Agents, s.teamLimits(), s.Past)
	} else {
		s.team, err = team.Enable(s.Session, s.Agents, s.teamLimits())
	}
	if err == nil && s.gitTrust != nil {
		s.team.TrustGit(s.gitTrust)
	}
	if err == nil && s.worktreeCopy != nil {
		s.team.CopyIntoWorktrees(s.worktreeCopy)
	}
	return s.team, err
}

// openTeams turns teams on for a session that asks (Spec.Teams), whose
// settings have them on, or whose resumed log had them.
func (h *Host) openTeams(s *Session, asked bool) error {
	s.teamLimits = func() settings.Teams { return h.o.Settings().Settings.Teams }
	s.worktreeCopy = func() []string { return h.o.Settings().Settings.WorktreeCopy }
	if h.env.ConfigDir != "" {
		s.gitTrust = trust.NewStore(h.env.ConfigDir).GitTrust
	}
	if !asked && !s.teamLimits().On && !team.WasOn(s.Past) {
		return nil
	}
	_, err := s.EnableTeams()
	return err
}

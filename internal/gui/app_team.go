package gui

import (
	"errors"

	"gatehouse/internal/protocol"
	"gatehouse/internal/sessionhost"
	"gatehouse/internal/team"
)

// keepTeams remembers the open sessions as the recipe made them, for
// turning their team on later (/experimental teams).
func (a *App) keepTeams(s *sessionhost.Session) {
	id := s.ID()
	a.hosted.Store(id, s)
	s.OnClose(func() { a.hosted.Delete(id) })
}

// hostedSession is the open session as the recipe made it.
func (a *App) hostedSession() (*sessionhost.Session, error) {
	s := a.currentSession()
	if s == nil {
		return nil, errNoSession
	}
	h, ok := a.hosted.Load(s.ID())
	if !ok {
		return nil, errors.New("the session cannot have a team")
	}
	return h.(*sessionhost.Session), nil
}

// theTeam is the open session's team, an error while teams are off.
func (a *App) theTeam() (*team.Team, error) {
	h, err := a.hostedSession()
	if err != nil {
		return nil, err
	}
	t := h.Teams()
	if t == nil {
		return nil, errors.New("agent teams are off in this session (/experimental teams turns them on)")
	}
	return t, nil
}

// TeamsEnable turns agent teams on for the open session (the composer's
// /experimental teams): the lead is offered the team tools from its next
// model request. It returns the team (team.enabled tells it too).
func (a *App) TeamsEnable() (protocol.TeamState, error) {
	if _, err := a.session(); err != nil {
		return protocol.TeamState{}, err
	}
	h, err := a.hostedSession()
	if err != nil {
		return protocol.TeamState{}, err
	}
	t, err := h.EnableTeams()
	if err != nil {
		return protocol.TeamState{}, err
	}
	return t.State(), nil
}

// Team is the open session's team; Enabled is false while teams are off
// (or no session is open).
func (a *App) Team() protocol.TeamState {
	t, err := a.theTeam()
	if err != nil {
		return protocol.TeamState{Teammates: []protocol.Teammate{}, Board: []protocol.TeamTask{},
			Messages: []protocol.TeamMessage{}, Notices: []protocol.TeamNotice{}}
	}
	return t.State()
}

// TeammateTranscript is teammate name's transcript, for the Team panel.
func (a *App) TeammateTranscript(name string) ([]protocol.TranscriptItem, error) {
	t, err := a.theTeam()
	if err != nil {
		return nil, err
	}
	return t.Transcript(name)
}

// TeamStop stops teammate name of the open session (the Team panel's
// stop button: the user's own decision, it does not ask).
func (a *App) TeamStop(name string) error {
	t, err := a.theTeam()
	if err != nil {
		return err
	}
	_, err = t.Stop(name, "the user stopped it")
	return err
}

package gui

import (
	"context"
	"errors"

	"gatehouse/internal/tools/steer"
)

// AnswerServerQuestion answers an MCP server's question (question.asked)
// waiting in session sessionID ("": the tab shown): accept with values
// (refused, and still waiting, when they do not fit the form), decline or
// cancel. The first answer wins.
func (a *App) AnswerServerQuestion(sessionID, questionID, action string, values map[string]any) error {
	s := a.currentSession()
	if sessionID != "" {
		a.mu.Lock()
		t := a.tabLocked(sessionID)
		a.mu.Unlock()
		if t == nil {
			return errors.New("that session is closed")
		}
		s = t.sess
	}
	if s == nil {
		return errNoSession
	}
	b, ok := s.Asker().(*steer.Broker)
	if !ok {
		return errors.New("this session takes no answers from the window")
	}
	return b.AnswerForm(questionID, action, values)
}

// windowAsker asks a shared server's question the app could not route to
// one session's call (mcp.Options.Ask) in the tab shown, naming the server
// only; with no session open, no one can answer and the server reads
// declined.
type windowAsker struct{ a *App }

// AskForm implements steer.FormAsker.
func (w windowAsker) AskForm(ctx context.Context, f steer.Form) (steer.FormAnswer, error) {
	s := w.a.currentSession()
	if s == nil {
		return steer.FormAnswer{}, steer.ErrNobody
	}
	f.CallID = ""
	return s.Forms().AskForm(ctx, f)
}

package runtime

import (
	"context"
	"errors"

	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
	"gatehouse/internal/tools/steer"
)

// scope adds to each call's context the session it runs for: MCP servers
// are shared between sessions, and route a server's question back through
// it and keep a call's pictures in its image store.
func (s *Session) scope(ctx context.Context) context.Context {
	ctx = tools.WithOwner(ctx, tools.Owner{Session: s.id, Images: s.images, CanSee: s.canSee})
	return steer.WithFormAsker(ctx, sessionForms{s})
}

// sessionForms puts a server's question to the session's user through its
// asker, announcing it (question.asked) and its answer (question.resolved)
// in the session's events, so the window shows it and badges a background
// tab, and exec --json readers see it. A host whose asker takes no forms
// has no one to ask: the server is told the user declined.
type sessionForms struct{ s *Session }

// AskForm implements steer.FormAsker.
func (q sessionForms) AskForm(ctx context.Context, f steer.Form) (steer.FormAnswer, error) {
	fa, ok := q.s.asker.(steer.FormAsker)
	if !ok {
		return steer.FormAnswer{}, steer.ErrNobody
	}
	turn := tools.TurnFrom(ctx)
	q.s.pub.Publish(protocol.Event{SessionID: q.s.id, TurnID: turn, Type: protocol.QuestionAsked, Payload: f})
	a, err := fa.AskForm(ctx, f)
	action := a.Action
	switch {
	case errors.Is(err, steer.ErrNobody):
		action = protocol.AnswerDecline
	case err != nil:
		action = protocol.AnswerCancel
	}
	q.s.pub.Publish(protocol.Event{SessionID: q.s.id, TurnID: turn, Type: protocol.QuestionResolved,
		Payload: protocol.QuestionResolvedPayload{QuestionID: f.QuestionID, Action: action}})
	return a, err
}

// Forms asks a server's question in this session, announced in its events
// as a question its own call caused (the window's fallback for a question
// no one session's call caused).
func (s *Session) Forms() steer.FormAsker { return sessionForms{s} }

package steer

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"gatehouse/internal/protocol"
)

type formWaiter struct {
	f  Form
	ch chan FormAnswer
}

// AskForm implements FormAsker: the form waits until AnswerForm names it.
func (b *Broker) AskForm(ctx context.Context, f Form) (FormAnswer, error) {
	w := &formWaiter{f: f, ch: make(chan FormAnswer, 1)}
	b.mu.Lock()
	if b.forms == nil {
		b.forms = map[string]*formWaiter{}
	}
	b.forms[f.QuestionID] = w
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		if b.forms[f.QuestionID] == w {
			delete(b.forms, f.QuestionID)
		}
		b.mu.Unlock()
	}()
	select {
	case a := <-w.ch:
		return a, nil
	case <-ctx.Done():
		return FormAnswer{}, ctx.Err()
	}
}

// AnswerForm answers the form id: accept with values (refused, and still
// waiting, when they do not fit the form), decline or cancel. The first
// answer wins.
func (b *Broker) AnswerForm(id, action string, values map[string]any) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	w := b.forms[id]
	if w == nil {
		return fmt.Errorf("no question %s is waiting", id)
	}
	a := FormAnswer{Action: action}
	switch action {
	case protocol.AnswerAccept:
		v, err := ValidateForm(w.f.Fields, values)
		if err != nil {
			return err
		}
		a.Content = v
	case protocol.AnswerDecline, protocol.AnswerCancel:
	default:
		return fmt.Errorf("answer with accept, decline or cancel, not %q", action)
	}
	delete(b.forms, id)
	w.ch <- a
	return nil
}

// PendingForms lists the servers' questions waiting, by id.
func (b *Broker) PendingForms() []Form {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]Form, 0, len(b.forms))
	for _, w := range b.forms {
		out = append(out, w.f)
	}
	slices.SortFunc(out, func(x, y Form) int { return strings.Compare(x.QuestionID, y.QuestionID) })
	return out
}

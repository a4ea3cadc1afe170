package steer

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"gatehouse/internal/tools"
)

// AskUserName is the tool's name.
const AskUserName = "ask_user"

// Caps on a question.
const (
	MaxQuestionChars = 2000
	MaxChoices       = 10
	MaxChoiceChars   = 200
)

// Question is what the model asks: one question, and the answers it
// offers (none: the user writes one).
type Question struct {
	CallID   string   `json:"callId"`
	Question string   `json:"question"`
	Choices  []string `json:"choices,omitempty"`
}

// Asker is how a host puts the model's question to its user.
//
// Ask blocks until the user answers, and returns the answer's text; it
// returns ctx's error when ctx ends first (the turn was cancelled), and
// ErrNobody when the host has no one to ask (exec without a terminal, an
// editor without elicitation). It may be called concurrently.
type Asker interface {
	Ask(ctx context.Context, q Question) (string, error)
}

// ErrNobody: the host cannot ask anyone; the model reads so and goes on.
var ErrNobody = errors.New("no one can answer questions here")

//go:embed ask_user.md
var askUserDescription string

// AskUser is the ask_user tool. It changes nothing, so no approval asks
// before it: the question itself waits for the user. Asker nil: nobody.
type AskUser struct {
	Asker Asker
	// Asking (may be nil) hears each question just before Asker is asked
	// (the Notification hooks), beside the asker rather than wrapping it.
	// It must not block.
	Asking func(Question)
}

// Spec implements tools.Tool.
func (AskUser) Spec() tools.Spec {
	return tools.Spec{Name: AskUserName, Description: askUserDescription, ReadOnly: true,
		Parameters: json.RawMessage(`{"type":"object","properties":{"question":{"type":"string","description":"one question, in plain words"},"choices":{"type":"array","items":{"type":"string"},"description":"answers to offer (optional; the user may only pick one of them)"}},"required":["question"],"additionalProperties":false}`)}
}

// Run implements tools.Tool.
func (a AskUser) Run(ctx context.Context, args json.RawMessage) (tools.Result, error) {
	var q Question
	if err := json.Unmarshal(args, &q); err != nil {
		return tools.Fail(tools.CodeInvalidArguments, "ask_user takes {\"question\", \"choices\"?}: "+err.Error(), ""), nil
	}
	q.Question = strings.TrimSpace(q.Question)
	switch {
	case q.Question == "":
		return tools.Fail(tools.CodeInvalidArguments, "the question is empty", ""), nil
	case len(q.Question) > MaxQuestionChars:
		return tools.Fail(tools.CodeInvalidArguments, fmt.Sprintf("the question is over %d characters: ask a shorter one", MaxQuestionChars), ""), nil
	case len(q.Choices) > MaxChoices:
		return tools.Fail(tools.CodeInvalidArguments, fmt.Sprintf("at most %d choices", MaxChoices), ""), nil
	}
	for _, c := range q.Choices {
		if strings.TrimSpace(c) == "" || len(c) > MaxChoiceChars {
			return tools.Fail(tools.CodeInvalidArguments, fmt.Sprintf("each choice needs 1 to %d characters", MaxChoiceChars), ""), nil
		}
	}
	if c, ok := tools.CallFrom(ctx); ok {
		q.CallID = c.ID
	}
	if a.Asker == nil {
		return nobody(), nil
	}
	if a.Asking != nil {
		a.Asking(q)
	}
	answer, err := a.Asker.Ask(ctx, q)
	switch {
	case errors.Is(err, ErrNobody):
		return nobody(), nil
	case err != nil && ctx.Err() != nil:
		return tools.Fail(tools.CodeNotRun, "the turn was cancelled before the user answered", ""), nil
	case err != nil:
		return tools.Fail("no_answer", "the question could not be asked: "+err.Error(), ""), nil
	}
	return tools.OK(map[string]any{"answer": answer})
}

func nobody() tools.Result {
	return tools.Fail("no_one_to_ask", "no one can answer questions in this session (it runs without a terminal or a window): "+
		"decide yourself, and say in your answer what you assumed", "")
}

// Broker is the window's Asker (and FormAsker, for servers' questions): a
// question waits until Answer names its call. The first answer wins;
// Pending lists the questions waiting.
type Broker struct {
	mu      sync.Mutex
	waiting map[string]*waiter
	forms   map[string]*formWaiter // servers' questions (broker_form.go)
}

type waiter struct {
	q  Question
	ch chan string
}

// NewBroker returns a broker with no question waiting.
func NewBroker() *Broker { return &Broker{waiting: map[string]*waiter{}} }

// Ask implements Asker.
func (b *Broker) Ask(ctx context.Context, q Question) (string, error) {
	w := &waiter{q: q, ch: make(chan string, 1)}
	b.mu.Lock()
	b.waiting[q.CallID] = w
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		if b.waiting[q.CallID] == w {
			delete(b.waiting, q.CallID)
		}
		b.mu.Unlock()
	}()
	select {
	case a := <-w.ch:
		return a, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// Answer answers the question of call callID. It fails when none waits
// (answered already, cancelled) or the answer is not one of its choices.
func (b *Broker) Answer(callID, answer string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	w := b.waiting[callID]
	if w == nil {
		return fmt.Errorf("no question of call %s is waiting", callID)
	}
	answer = strings.TrimSpace(answer)
	if answer == "" {
		return errors.New("the answer is empty")
	}
	if len(w.q.Choices) > 0 && !contains(w.q.Choices, answer) {
		return fmt.Errorf("%q is not one of the choices", answer)
	}
	delete(b.waiting, callID)
	w.ch <- answer
	return nil
}

// Pending lists the questions waiting.
func (b *Broker) Pending() []Question {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]Question, 0, len(b.waiting))
	for _, w := range b.waiting {
		out = append(out, w.q)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

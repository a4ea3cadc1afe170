package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
	"gatehouse/internal/tools/steer"
)

// everything starts server-everything over stdio; it offers
// trigger-elicitation-request only to a client that declares elicitation.
func everything(t *testing.T, opts Options) *Manager {
	t.Helper()
	js := npmServer(t, "server-everything")
	m := newTestManager(t, opts, Entry{Name: "everything", Config: ServerConfig{Command: "node", Args: []string{js, "stdio"}}})
	if st := mustStatus(t, m, "everything"); st.State != StateReady {
		t.Fatalf("state %s: %s\n%s", st.State, st.Error, st.Stderr)
	}
	// The conditional tools are registered once the client said it is
	// initialized; the list_changed that follows refreshes ours.
	deadline := time.Now().Add(20 * time.Second)
	for !hasTool(m, "mcp__everything__trigger-elicitation-request") {
		if time.Now().After(deadline) {
			t.Fatal("trigger-elicitation-request is not offered: the client did not declare elicitation")
		}
		time.Sleep(50 * time.Millisecond)
	}
	return m
}

func hasTool(m *Manager, name string) bool {
	for _, p := range m.Providers() {
		for _, tl := range p.Tools() {
			if tl.Spec().Name == name {
				return true
			}
		}
	}
	return false
}

// tab is the context of a call of session id with callID, asked through a.
func tab(id, callID string, a steer.FormAsker) context.Context {
	ctx := tools.WithOwner(context.Background(), tools.Owner{Session: id})
	ctx = tools.WithCall(ctx, tools.Call{ID: callID})
	if a != nil {
		ctx = steer.WithFormAsker(ctx, a)
	}
	return ctx
}

// waitForm waits until b holds a question and returns it.
func waitForm(t *testing.T, b *steer.Broker) steer.Form {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if p := b.PendingForms(); len(p) > 0 {
			return p[0]
		}
		if time.Now().After(deadline) {
			t.Fatal("no question reached the broker")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

type callResult struct {
	res tools.Result
	err error
}

func runAsync(ctx context.Context, tl tools.Tool, args string) chan callResult {
	ch := make(chan callResult, 1)
	go func() {
		r, err := tl.Run(ctx, json.RawMessage(args))
		ch <- callResult{r, err}
	}()
	return ch
}

func text(t *testing.T, ch chan callResult) string {
	t.Helper()
	select {
	case r := <-ch:
		if r.err != nil {
			t.Fatal(r.err)
		}
		return string(r.res.Output)
	case <-time.After(30 * time.Second):
		t.Fatal("the call did not end")
	}
	return ""
}

func TestElicitationAnsweredInTheWindow(t *testing.T) {
	m := everything(t, Options{})
	b := steer.NewBroker()
	ch := runAsync(tab("tab-a", "call-1", b), findTool(t, m, "mcp__everything__trigger-elicitation-request"), `{}`)
	f := waitForm(t, b)
	if f.Server != "everything" || f.CallID != "call-1" || f.Workspace || !strings.Contains(f.Message, "Please provide") {
		t.Fatalf("question %+v", f)
	}
	byName := map[string]protocol.FormField{}
	for _, fl := range f.Fields {
		byName[fl.Name] = fl
	}
	if n := byName["name"]; n.Type != protocol.FieldString || !n.Required {
		t.Errorf("name field %+v", n)
	}
	if i := byName["integer"]; i.Type != protocol.FieldInteger || i.Max == nil || *i.Max != 100 {
		t.Errorf("integer field %+v", i)
	}
	if e := byName["titledSingleSelectEnum"]; e.Type != protocol.FieldEnum || len(e.Options) != 3 || e.Options[0].Title != "Superman" {
		t.Errorf("enum field %+v", e)
	}
	if _, ok := byName["untitledMultipleSelectEnum"]; ok {
		t.Error("an optional array field is offered")
	}
	// Validated before sending: a number out of bounds, a missing name.
	if err := b.AnswerForm(f.QuestionID, protocol.AnswerAccept, map[string]any{"name": "Ada", "integer": 500.0}); err == nil || !strings.Contains(err.Error(), "at most 100") {
		t.Fatalf("out of bounds: %v", err)
	}
	if err := b.AnswerForm(f.QuestionID, protocol.AnswerAccept, map[string]any{"check": true}); err == nil || !strings.Contains(err.Error(), "required") {
		t.Fatalf("missing name: %v", err)
	}
	if err := b.AnswerForm(f.QuestionID, protocol.AnswerAccept, map[string]any{"name": "Ada Lovelace", "check": true, "integer": "7", "email": "ada@example.org"}); err != nil {
		t.Fatal(err)
	}
	out := text(t, ch)
	for _, want := range []string{"User provided the requested information", "Name: Ada Lovelace", "Agreed to terms: true", "Favorite Integer: 7", "ada@example.org"} {
		if !strings.Contains(out, want) {
			t.Errorf("result lacks %q: %s", want, out)
		}
	}
}

func TestElicitationDeclinedWithoutAnyoneToAsk(t *testing.T) {
	m := everything(t, Options{})
	out := text(t, runAsync(tab("exec", "call-1", nil), findTool(t, m, "mcp__everything__trigger-elicitation-request"), `{}`))
	if !strings.Contains(out, "User declined") {
		t.Fatalf("the server was not told the user declined: %s", out)
	}
}

func TestElicitationCancelled(t *testing.T) {
	m := everything(t, Options{})
	tl := findTool(t, m, "mcp__everything__trigger-elicitation-request")
	b := steer.NewBroker()
	ch := runAsync(tab("tab-a", "call-1", b), tl, `{}`)
	f := waitForm(t, b)
	if err := b.AnswerForm(f.QuestionID, protocol.AnswerCancel, nil); err != nil {
		t.Fatal(err)
	}
	if out := text(t, ch); !strings.Contains(out, "User cancelled") {
		t.Fatalf("cancel: %s", out)
	}
	// Declined from the dialog: the server reads decline.
	ch = runAsync(tab("tab-a", "call-2", b), tl, `{}`)
	f = waitForm(t, b)
	if err := b.AnswerForm(f.QuestionID, protocol.AnswerDecline, nil); err != nil {
		t.Fatal(err)
	}
	if out := text(t, ch); !strings.Contains(out, "User declined") {
		t.Fatalf("decline: %s", out)
	}
	// The turn cancelled while the question waits: the question ends and
	// the call with it.
	ctx, cancel := context.WithCancel(tab("tab-a", "call-3", b))
	ch = runAsync(ctx, tl, `{}`)
	waitForm(t, b)
	cancel()
	text(t, ch)
	deadline := time.Now().Add(30 * time.Second)
	for len(b.PendingForms()) > 0 {
		if time.Now().After(deadline) {
			t.Fatal("the question still waits after its turn was cancelled")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A server used by two tabs: its question reaches the tab whose call
// caused it; with calls of both tabs in flight the app cannot tell, and the
// window asks naming the server only.
func TestElicitationReachesTheTabWhoseCallCausedIt(t *testing.T) {
	window := steer.NewBroker()
	m := everything(t, Options{Ask: window})
	tl := findTool(t, m, "mcp__everything__trigger-elicitation-request")
	a, b := steer.NewBroker(), steer.NewBroker()

	ch := runAsync(tab("tab-b", "call-b1", b), tl, `{}`)
	f := waitForm(t, b)
	if len(a.PendingForms()) != 0 || len(window.PendingForms()) != 0 {
		t.Fatal("the question reached another tab too")
	}
	if err := b.AnswerForm(f.QuestionID, protocol.AnswerAccept, map[string]any{"name": "Bea"}); err != nil {
		t.Fatal(err)
	}
	if out := text(t, ch); !strings.Contains(out, "Name: Bea") {
		t.Fatalf("tab b's answer: %s", out)
	}

	// Tab a runs a long call while tab b's call asks.
	long := runAsync(tab("tab-a", "call-a1", a), findTool(t, m, "mcp__everything__trigger-long-running-operation"), `{"duration":3,"steps":3}`)
	time.Sleep(200 * time.Millisecond)
	ch = runAsync(tab("tab-b", "call-b2", b), tl, `{}`)
	f = waitForm(t, window)
	if f.Server != "everything" || f.CallID != "" {
		t.Fatalf("the window's question %+v", f)
	}
	if len(a.PendingForms())+len(b.PendingForms()) != 0 {
		t.Fatal("a tab got a question the app could not route")
	}
	if err := window.AnswerForm(f.QuestionID, protocol.AnswerDecline, nil); err != nil {
		t.Fatal(err)
	}
	text(t, ch)
	text(t, long)
}

func TestFormFieldsRefuseARequiredFieldTheyCannotAsk(t *testing.T) {
	_, err := FormFields(map[string]any{"type": "object", "properties": map[string]any{
		"tags": map[string]any{"type": "array"}}, "required": []string{"tags"}})
	if err == nil {
		t.Fatal("a required array field was accepted")
	}
	fs, err := FormFields(map[string]any{"type": "object", "properties": map[string]any{
		"pet": map[string]any{"type": "string", "enum": []string{"p1", "p2"}, "enumNames": []string{"Cats", "Dogs"}},
		"ok":  map[string]any{"type": "boolean"}}, "required": []string{"ok"}})
	if err != nil || len(fs) != 2 || fs[0].Name != "ok" || fs[1].Options[1].Title != "Dogs" {
		t.Fatalf("%+v %v", fs, err)
	}
}

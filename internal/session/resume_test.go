package session

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/agent"
	"gatehouse/internal/events"
	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
)

// live is one session as the app wires it: agent → bus → State → log.
type live struct {
	agent *agent.Agent
	bus   *events.Bus
	log   *Log
}

func openLive(t *testing.T, st *Store, ws, id string, api llm.API, url, model string, past *Loaded) *live {
	t.Helper()
	var l *Log
	var err error
	var items []protocol.TranscriptItem
	if past == nil {
		l, err = st.Create(ws, id)
	} else {
		l, past, err = st.Open(ws, id)
		items = past.Items
	}
	if err != nil {
		t.Fatal(err)
	}
	state := NewState(id, items, func(it protocol.TranscriptItem) {
		if err := l.AppendItem(it); err != nil {
			t.Error(err)
		}
	})
	bus := events.New(state, events.Options{})
	client, err := llm.New(llm.Config{API: api, BaseURL: url, APIKey: "k", Model: model})
	if err != nil {
		t.Fatal(err)
	}
	a := agent.New(agent.Config{Model: client, Events: bus, SessionID: id, System: "sys", ContextWindow: 1500})
	if past != nil {
		Resume(a, past.Items)
	}
	return &live{agent: a, bus: bus, log: l}
}

func (s *live) close() {
	s.bus.Flush()
	s.log.Close()
}

// A session compacted, saved and resumed sends what it sent before the
// save (the summary, then the messages it kept), while its transcript
// still has every message; an undone compaction stays undone.
func TestResumeAfterCompaction(t *testing.T) {
	long := strings.Repeat("a long answer ", 430) // ~6,000 bytes
	srv := llmtest.Start(t, llmtest.Script{
		When:      []llmtest.Rule{{LastContains: "checkpoint summary", Response: llmtest.Response{Text: llmtest.Text("THE SUMMARY")}}},
		Responses: []llmtest.Response{{Text: llmtest.Text(long)}, {Text: llmtest.Text("ok")}, {Text: llmtest.Text("after resume")}}})
	st, ws := NewStore(t.TempDir()), t.TempDir()
	s := openLive(t, st, ws, "c1", llm.APIChat, srv.URL, "fake-model", nil)
	s.agent.Run(context.Background(), "c1-t1", "first")
	if out := s.agent.Run(context.Background(), "c1-t2", "second"); out.Compactions != 1 {
		t.Fatalf("outcome %+v: the second turn should compact", out)
	}
	s.close()

	past, err := st.Load(ws, "c1")
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, it := range past.Items {
		kinds = append(kinds, string(it.Kind))
	}
	if got := strings.Join(kinds, ","); got != "user,assistant,stop,user,compaction,assistant,stop" {
		t.Fatalf("saved transcript %s", got)
	}
	if past.Items[1].Text != long || past.Items[4].Text != "THE SUMMARY" || past.Items[4].Compaction.KeepFrom != "c1-t2" {
		t.Fatalf("saved items %+v", past.Items[4])
	}

	r := openLive(t, st, ws, "c1", llm.APIChat, srv.URL, "fake-model", past)
	r.agent.Run(context.Background(), "c1-t3", "third")
	r.close()
	reqs := srv.ModelRequests()
	var body struct {
		Messages []struct{ Role, Content string } `json:"messages"`
	}
	json.Unmarshal(reqs[len(reqs)-1].Body, &body)
	var got []string
	for _, m := range body.Messages {
		got = append(got, m.Role+":"+m.Content)
	}
	want := []string{"system:sys", "user:" + strings.SplitN(got[1][5:], "\n\n", 2)[0] + "\n\nTHE SUMMARY", "user:second", "assistant:ok", "user:third"}
	if strings.Join(got, "|") != strings.Join(want, "|") || !strings.Contains(got[1], "[Checkpoint") {
		t.Fatalf("resumed request\n got %q\nwant %q", got, want)
	}
}

// An undone compaction is saved as undone: a resumed session sends the
// whole history.
func TestResumeAfterUndoneCompaction(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{
		When:      []llmtest.Rule{{LastContains: "checkpoint summary", Response: llmtest.Response{Text: llmtest.Text("S")}}},
		Responses: []llmtest.Response{{Text: llmtest.Text("one")}, {Text: llmtest.Text("two")}}})
	st, ws := NewStore(t.TempDir()), t.TempDir()
	s := openLive(t, st, ws, "u1", llm.APIChat, srv.URL, "fake-model", nil)
	s.agent.Run(context.Background(), "u1-t1", "first")
	if err := s.agent.Compact(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := s.agent.UndoCompact(); err != nil {
		t.Fatal(err)
	}
	s.close()
	past, _ := st.Load(ws, "u1")
	if n := len(past.Items); n != 4 || !past.Items[3].Compaction.Undone {
		t.Fatalf("saved %d items, last %+v", n, past.Items[n-1])
	}
	r := openLive(t, st, ws, "u1", llm.APIChat, srv.URL, "fake-model", past)
	r.agent.Run(context.Background(), "u1-t2", "again")
	r.close()
	reqs := srv.ModelRequests()
	if body := string(reqs[len(reqs)-1].Body); strings.Contains(body, "Checkpoint") || !strings.Contains(body, `"first"`) {
		t.Fatalf("resumed request %s", body)
	}
}

// Reasoning items are saved with the message: a resumed session sends them
// back to the model that made them, and leaves them out for another.
func TestReasoningSurvivesResumeUnlessTheModelChanged(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Reasoning: []llmtest.Reasoning{{Encrypted: "enc-1"}}, Text: llmtest.Text("hi")},
		{Text: llmtest.Text("same model")}, {Text: llmtest.Text("other model")}}})
	st, ws := NewStore(t.TempDir()), t.TempDir()
	s := openLive(t, st, ws, "r1", llm.APIResponses, srv.URL, "fake-model", nil)
	s.agent.Run(context.Background(), "r1-t1", "hello")
	s.close()

	past, _ := st.Load(ws, "r1")
	r := openLive(t, st, ws, "r1", llm.APIResponses, srv.URL, "fake-model", past)
	r.agent.Run(context.Background(), "r1-t2", "more")
	r.close()
	past, _ = st.Load(ws, "r1")
	o := openLive(t, st, ws, "r1", llm.APIResponses, srv.URL, "other-model", past)
	o.agent.Run(context.Background(), "r1-t3", "more")
	o.close()

	reqs := srv.ModelRequests()
	if !strings.Contains(string(reqs[1].Body), `"encrypted_content":"enc-1"`) {
		t.Errorf("resumed with the same model, the reasoning should go back: %s", reqs[1].Body)
	}
	if strings.Contains(string(reqs[2].Body), "enc-1") || strings.Contains(string(reqs[2].Body), `"reasoning"`) {
		t.Errorf("another model must not get the reasoning: %s", reqs[2].Body)
	}
}

// The controller runs a compaction like a turn: refused while a turn runs,
// and a message sent meanwhile waits for it.
func TestControllerCompactsBetweenTurns(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{
		When:      []llmtest.Rule{{LastContains: "checkpoint summary", Response: llmtest.Response{Text: llmtest.Text("S"), DelayMs: 200}}},
		Responses: []llmtest.Response{{Text: llmtest.Text("Hel"), Hang: true}, {Text: llmtest.Text("after")}}})
	st, ws := NewStore(t.TempDir()), t.TempDir()
	s := openLive(t, st, ws, "k1", llm.APIChat, srv.URL, "fake-model", nil)
	defer s.close()
	c := NewController("k1", s.agent, nil)
	defer c.Close()
	if err := c.Compact(); err != agent.ErrNothingToCompact {
		t.Fatalf("empty session: %v", err)
	}
	if _, err := c.Submit("first"); err != nil {
		t.Fatal(err)
	}
	for len(srv.ModelRequests()) == 0 {
		time.Sleep(time.Millisecond)
	}
	if err := c.Compact(); err != agent.ErrTurnRunning {
		t.Fatalf("during a turn: %v", err)
	}
	c.Cancel()
	c.Wait()
	done := make(chan error, 1)
	go func() { done <- c.Compact() }()
	for len(srv.ModelRequests()) < 2 {
		time.Sleep(time.Millisecond)
	}
	if queued, err := c.Submit("second"); err != nil || !queued {
		t.Fatalf("a message sent during the compaction should wait: queued %v, %v", queued, err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	c.Wait()
	reqs := srv.ModelRequests()
	if len(reqs) != 3 || reqs[1].Rule != 1 || !strings.Contains(string(reqs[2].Body), "[Checkpoint") {
		t.Fatalf("requests %+v", reqs)
	}
}

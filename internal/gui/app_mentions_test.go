package gui

import (
	"os"
	"path/filepath"
	"strings"

	"gatehouse/internal/protocol"

	"testing"

	"gatehouse/internal/llm/llmtest"
)

// The @ picker lists the workspace's earlier sessions (not the open one);
// mentioning one attaches its digest (prompts and replies) to the message.
// A mention of no session of this workspace fails the send.
func TestMentionAnEarlierSession(t *testing.T) {
	app, _, srv := newTestAppServer(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: llmtest.Text("The cache key omits the locale.")}, {Text: llmtest.Text("Then fix it.")}}})
	if _, err := app.Submit(protocol.Submission{Text: "why is the cache stale?"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	old := app.Snapshot().SessionID
	if c := app.MentionCandidates("cache"); len(c) != 0 {
		t.Fatalf("the open session is offered: %+v", c)
	}
	app.NewSession()
	c := app.MentionCandidates("cache")
	if len(c) == 0 || c[0].Mention != "session:"+old || c[0].Label != "Session: why is the cache stale?" {
		t.Fatalf("candidates %+v", c)
	}
	if _, err := app.Submit(protocol.Submission{Text: "fix @session:../../etc", Mentions: []string{"session:../../etc"}}); err == nil {
		t.Fatal("a mention of no session was sent")
	}
	if _, err := app.Submit(protocol.Submission{Text: "fix what @" + c[0].Mention + " found", Mentions: []string{c[0].Mention}}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	body, _ := srv.ChatRequest(1)
	for _, want := range []string{`<session id=\"` + old, "User: why is the cache stale?", "Assistant: The cache key omits the locale."} {
		if !strings.Contains(string(body), want) {
			t.Errorf("the request lacks %q", want)
		}
	}
}

// TestMentionListSeesAFileMadeAfterItsWalk: the @ list searches an index
// walked once; a file made afterwards is offered once the watch hears it.
func TestMentionListSeesAFileMadeAfterItsWalk(t *testing.T) {
	app, ws := newTestApp(t, llmtest.Script{})
	os.WriteFile(filepath.Join(ws, "first.txt"), []byte("x"), 0o644)
	waitFor(t, "first.txt was not offered", func() bool { return hasMention(app, "first", "first.txt") })
	os.WriteFile(filepath.Join(ws, "second.txt"), []byte("x"), 0o644)
	waitFor(t, "second.txt, made after the walk, was not offered", func() bool { return hasMention(app, "second", "second.txt") })
}

func hasMention(app *App, query, want string) bool {
	for _, c := range app.MentionCandidates(query) {
		if c.Mention == want {
			return true
		}
	}
	return false
}

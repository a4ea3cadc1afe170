package gui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
)

// TestServerQuestionOfABackgroundTab: the user's server-everything asks
// for a form during a call of a tab not shown. The tab counts it as
// waiting and the notification names the server; the tab's snapshot holds
// the question; the answer given through the window reaches the server,
// and its result the model.
func TestServerQuestionOfABackgroundTab(t *testing.T) {
	app, srv := everythingApp(t, llmtest.Script{When: []llmtest.Rule{
		{LastContains: "User provided", Response: llmtest.Response{Text: llmtest.Text("thanks")}},
		{LastContains: "task E", Response: llmtest.Response{ToolCalls: []llmtest.ToolCall{
			{ID: "e1", Name: "mcp__everything__trigger-elicitation-request", Arguments: llmtest.Text(`{}`)}}}},
	}})
	sent := make(recordingNotifier, 4)
	app.attention.notifier = sent
	app.Ready()
	waitFor(t, "server-everything did not offer its elicitation tool", func() bool {
		l := app.McpList().Servers
		return len(l) == 1 && slices.ContainsFunc(l[0].Tools, func(tl protocol.McpTool) bool { return tl.Name == "trigger-elicitation-request" })
	})
	if _, err := app.Submit(protocol.Submission{Text: "task E"}); err != nil {
		t.Fatal(err)
	}
	a := app.currentSession()
	if _, err := app.NewTab(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the background tab never waited", func() bool { return tabOf(t, app, a.ID()).Waiting == 1 })
	expectNotification(t, sent, "Session "+app.tabName(a.ID())+" is waiting for you", "MCP server everything asks: Please provide")
	q := a.Snapshot().PendingQuestions
	if len(q) != 1 || q[0].Server != "everything" || q[0].CallID != "e1" {
		t.Fatalf("pending questions %+v", q)
	}
	if err := app.AnswerServerQuestion(a.ID(), q[0].QuestionID, protocol.AnswerAccept, map[string]any{"integer": 7.0}); err == nil {
		t.Fatal("an answer without the required name was sent")
	}
	if err := app.AnswerServerQuestion(a.ID(), q[0].QuestionID, protocol.AnswerAccept, map[string]any{"name": "Ada", "integer": 7.0}); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { a.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the turn did not stop")
	}
	body, _ := srv.ChatRequest(1)
	if !strings.Contains(string(body), "Name: Ada") {
		t.Errorf("the server's result did not reach the model: %.600s", body)
	}
	if tabOf(t, app, a.ID()).Waiting != 0 {
		t.Error("the tab still waits")
	}
}

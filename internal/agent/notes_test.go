package agent

import (
	"context"
	"strings"
	"testing"

	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

func TestNotesJoinTheNextRequest(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("c1", "echo", `{"text":"a"}`)}},
		{Text: llmtest.Text("done")},
	}})
	client, err := llm.New(llm.Config{BaseURL: srv.URL, APIKey: "sk-test", Model: "fake-model"})
	if err != nil {
		t.Fatal(err)
	}
	asked := 0
	notes := func() []string {
		asked++
		if asked == 2 { // after the tool ran: someone edited a file
			return []string{"NOTE: a.txt changed on disk"}
		}
		return nil
	}
	a := New(Config{Model: client, Tools: testTools(t, tools.Policy{}), Events: &recorder{}, SessionID: "s1", Notes: notes})
	if out := a.Run(context.Background(), "t1", "go"); out.Reason != protocol.StopCompleted {
		t.Fatalf("outcome %+v", out)
	}
	reqs := srv.ModelRequests()
	if len(reqs) != 2 || strings.Contains(string(reqs[0].Body), "NOTE:") || !strings.Contains(string(reqs[1].Body), "NOTE: a.txt changed on disk") {
		t.Fatalf("the note should be in the second request only")
	}
	if asked != 2 {
		t.Errorf("Notes asked %d times, want once per request", asked)
	}
}

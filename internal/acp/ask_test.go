package acp

import (
	"context"
	"strings"
	"testing"

	"gatehouse/internal/llm/llmtest"

	sdk "github.com/coder/acp-go-sdk"
)

// UnstableCreateElicitation answers a form with the second of its
// choices, as a user picking it would.
func (e *editor) UnstableCreateElicitation(_ context.Context, p sdk.UnstableCreateElicitationRequest) (sdk.UnstableCreateElicitationResponse, error) {
	e.mu.Lock()
	e.elicitations = append(e.elicitations, p)
	e.mu.Unlock()
	field, _ := p.Form.RequestedSchema.Properties["answer"].(map[string]any)
	choices, _ := field["enum"].([]any)
	if len(choices) < 2 {
		return sdk.UnstableCreateElicitationResponse{Decline: &sdk.UnstableCreateElicitationDecline{Action: "decline"}}, nil
	}
	return sdk.UnstableCreateElicitationResponse{Accept: &sdk.UnstableCreateElicitationAccept{Action: "accept",
		Content: map[string]any{"answer": choices[1]}}}, nil
}

func askScript() llmtest.Script {
	return llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "q1", Name: "ask_user", Arguments: llmtest.Text(`{"question":"Which port?","choices":["8080","9090"]}`)}}},
		{Text: llmtest.Text("ok")},
	}}
}

// An editor that renders forms gets ask_user as an elicitation; the answer
// is the call's result.
func TestAskUserThroughElicitation(t *testing.T) {
	srv := llmtest.Start(t, askScript())
	e := startEditor(t, testEnv(t), srv)
	if _, err := e.conn.Initialize(context.Background(), sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber,
		ClientCapabilities: sdk.ClientCapabilities{Elicitation: &sdk.ElicitationCapabilities{Form: &sdk.ElicitationFormCapabilities{}}}}); err != nil {
		t.Fatal(err)
	}
	s := e.newSession(workspaceWith(t, nil))
	if _, err := e.prompt(context.Background(), s.SessionId, "serve"); err != nil {
		t.Fatal(err)
	}
	e.mu.Lock()
	got := e.elicitations
	e.mu.Unlock()
	if len(got) != 1 || got[0].Form == nil || got[0].Form.Message != "Which port?" || got[0].Form.Meta["sessionId"] != string(s.SessionId) {
		t.Fatalf("elicitations %+v", got)
	}
	body, _ := srv.ChatRequest(1)
	if !strings.Contains(string(body), `{\"answer\":\"9090\"}`) {
		t.Errorf("the answer did not reach the model: %.400s", body)
	}
}

// An editor without forms: the model reads that no one can answer.
func TestAskUserWithoutElicitation(t *testing.T) {
	srv := llmtest.Start(t, askScript())
	e := startEditor(t, testEnv(t), srv)
	e.initialize()
	s := e.newSession(workspaceWith(t, nil))
	if _, err := e.prompt(context.Background(), s.SessionId, "serve"); err != nil {
		t.Fatal(err)
	}
	if len(e.elicitations) != 0 {
		t.Error("an editor without forms was sent one")
	}
	body, _ := srv.ChatRequest(1)
	if !strings.Contains(string(body), "no_one_to_ask") {
		t.Errorf("the model was not told: %.400s", body)
	}
}

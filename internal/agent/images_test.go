package agent

import (
	"context"
	"strings"
	"testing"

	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
)

// An old view_image result's image is cleared like old tool output when the
// window fills (a line in its place says so), and counts in the estimate
// by the provider's image rule.
func TestOldToolImagesAreClearedLikeOldOutput(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: llmtest.Text("ok")}}})
	client, err := llm.New(llm.Config{BaseURL: srv.URL, APIKey: "sk-test", Model: "fake-model"})
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	a := New(Config{Model: client, Events: rec, SessionID: "s1", ContextWindow: 1000, CanSee: func() bool { return true }})
	pic := llm.Image{ID: "i1", MIME: "image/png", Width: 2048, Height: 2048, Data: []byte("\x89PNG\r\n\x1a\n fake")}
	if n := messageTokens(llm.Message{Images: []llm.Image{pic}}); n < pic.Tokens() {
		t.Fatalf("an image counts %d tokens in the estimate, want at least %d", n, pic.Tokens())
	}
	a.SetHistory([]llm.Message{
		llm.User("u1"),
		llm.Assistant("", llm.ToolCall{ID: "v", Name: "view_image", Arguments: `{"path":"a.png"}`}),
		{Role: llm.RoleTool, ToolCallID: "v", Text: `{"path":"a.png"}`, Images: []llm.Image{pic}},
		llm.Assistant("it is a square"),
	})
	if out := a.Run(context.Background(), "", "again"); out.Reason != protocol.StopCompleted || out.Trimmed != 1 {
		t.Fatalf("outcome %+v", out)
	}
	if n := len(srv.Images(0)); n != 0 {
		t.Fatalf("the cleared image was sent (%d)", n)
	}
	if body := string(srv.ModelRequests()[0].Body); !strings.Contains(body, "were dropped to save context") {
		t.Errorf("no line says the image was dropped: %s", body)
	}
}

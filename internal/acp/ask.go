package acp

import (
	"context"
	"fmt"

	"gatehouse/internal/protocol"
	"gatehouse/internal/tools/steer"

	sdk "github.com/coder/acp-go-sdk"
)

// asker puts the model's ask_user questions to the editor's user through
// the (unstable) form elicitation request, when the editor said at
// initialize that it renders forms; otherwise no one can answer, and the
// model reads so.
type asker struct{ s *acpSession }

// Ask implements steer.Asker.
func (k asker) Ask(ctx context.Context, q steer.Question) (string, error) {
	if !k.s.a.elicit.Load() {
		return "", steer.ErrNobody
	}
	field := map[string]any{"type": "string", "title": "Answer"}
	if len(q.Choices) > 0 {
		field["enum"] = q.Choices
	}
	req := sdk.NewUnstableCreateElicitationRequestForm(sdk.UnstableElicitationSchema{
		Properties: map[string]any{"answer": field}, Required: []string{"answer"}, Type: sdk.UnstableElicitationSchemaTypeObject})
	req.Form.Message = q.Question
	// This SDK's form carries no session scope: the session and the call
	// ride in _meta.
	req.Form.Meta = map[string]any{"sessionId": k.s.id, "toolCallId": q.CallID}
	k.s.flush() // the ask_user call shows before its question
	resp, err := k.s.a.peer().UnstableCreateElicitation(ctx, req)
	switch {
	case err != nil:
		return "", fmt.Errorf("the editor could not ask: %w", err)
	case resp.Accept == nil:
		return "", fmt.Errorf("the user declined to answer")
	}
	a, _ := resp.Accept.Content["answer"].(string)
	if a == "" {
		return "", fmt.Errorf("the editor returned no answer")
	}
	return a, nil
}

// AskForm puts an MCP server's question to the editor's user as its own
// form (steer.FormAsker), naming the server; without forms no one can
// answer, and the server is told the user declined.
func (k asker) AskForm(ctx context.Context, f steer.Form) (steer.FormAnswer, error) {
	if !k.s.a.elicit.Load() {
		return steer.FormAnswer{}, steer.ErrNobody
	}
	props, required := steer.FormSchema(f.Fields)
	req := sdk.NewUnstableCreateElicitationRequestForm(sdk.UnstableElicitationSchema{
		Properties: props, Required: required, Type: sdk.UnstableElicitationSchemaTypeObject})
	from := "MCP server " + f.Server
	if f.Workspace {
		from += " (from the workspace)"
	}
	req.Form.Message = from + " asks: " + f.Message
	req.Form.Meta = map[string]any{"sessionId": k.s.id, "toolCallId": f.CallID, "mcpServer": f.Server}
	k.s.flush()
	resp, err := k.s.a.peer().UnstableCreateElicitation(ctx, req)
	switch {
	case err != nil:
		return steer.FormAnswer{}, fmt.Errorf("the editor could not ask: %w", err)
	case resp.Accept != nil:
		v, err := steer.ValidateForm(f.Fields, resp.Accept.Content)
		if err != nil {
			return steer.FormAnswer{Action: protocol.AnswerDecline}, nil
		}
		return steer.FormAnswer{Action: protocol.AnswerAccept, Content: v}, nil
	case resp.Decline != nil:
		return steer.FormAnswer{Action: protocol.AnswerDecline}, nil
	}
	return steer.FormAnswer{Action: protocol.AnswerCancel}, nil
}

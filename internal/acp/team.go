package acp

import (
	"context"
	"fmt"
	"slices"

	sdk "github.com/coder/acp-go-sdk"

	"gatehouse/internal/protocol"
)

// MetaExperimental is the session/new (and session/load) _meta key whose
// list turns experimental features on for the session: ["teams"] gives the
// lead the agent team tools.
const MetaExperimental = "gatehouse/experimental"

// experimental reports whether meta asks for agent teams.
func experimental(meta map[string]any) bool {
	list, _ := meta[MetaExperimental].([]any)
	return slices.Contains(list, any("teams"))
}

// teammate shows a teammate's event under the lead's team_spawn call that
// started it: its tool calls as the lead's, titled "name › …", its answers
// as updates of the spawn call; its streamed text is not the lead's
// message. It reports whether the event was handled.
func (s *acpSession) teammate(ctx context.Context, e protocol.Event) bool {
	switch p := e.Payload.(type) {
	case protocol.MessageDeltaPayload:
		return true
	case protocol.MessageDonePayload:
		if p.Text != "" && e.ParentCallID != "" {
			s.send(ctx, sdk.UpdateToolCall(sdk.ToolCallId(e.ParentCallID),
				sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(e.Agent + ": " + p.Text))})))
		}
		return true
	case protocol.ToolStartedPayload:
		s.callMu.Lock()
		s.calls[p.CallID] = &callInfo{before: beforeImages(s.ws, p.Tool, p.Args)}
		s.callMu.Unlock()
		u := startCall(s.ws, p.CallID, p.Tool, p.Args)
		if u.ToolCall != nil {
			u.ToolCall.Title = e.Agent + " › " + u.ToolCall.Title
		}
		s.send(ctx, u)
		return true
	}
	return false
}

// teamLine is a team message or notice as one line of the lead's thought.
func teamLine(p any) string {
	switch p := p.(type) {
	case protocol.TeamMessage:
		return fmt.Sprintf("[team] %s → %s: %s", p.From, p.To, p.Text)
	case protocol.TeamNotice:
		return "[team] " + p.Text
	}
	return ""
}

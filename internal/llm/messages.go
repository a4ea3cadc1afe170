package llm

import (
	"encoding/json"
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/shared"
)

// Role of a message.
type Role string

const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one entry of the conversation sent to the model.
//
//	system, user: Text
//	assistant:    Text and/or ToolCalls
//	tool:         Text (the tool's result) and ToolCallID (the call it answers)
//
// A user or tool message may carry Images (see Image); a tool message's
// go, on Chat Completions, in a user message right after it.
//
// An assistant message may also carry Reasoning, which only the model client
// reads.
type Message struct {
	Role       Role       `json:"role"`
	Text       string     `json:"text,omitempty"`
	ToolCalls  []ToolCall `json:"toolCalls,omitempty"`
	ToolCallID string     `json:"toolCallId,omitempty"`
	Images     []Image    `json:"images,omitempty"`
	// Reasoning is the provider's reasoning items of an assistant message,
	// opaque to everyone but this package: on the Responses API, the
	// "reasoning" output items exactly as the server sent them (id,
	// encrypted_content, summary). The client is stateless (store: false),
	// so a reasoning model keeps its reasoning across the steps of a tool
	// loop only if these go back with the next request, before the
	// message's text and calls; keep them with the message and pass it back
	// unchanged. The Chat Completions path ignores them.
	//
	// The session log keeps them with the message (with ReasoningModel), so
	// a resumed session sends them back.
	Reasoning []json.RawMessage `json:"reasoning,omitempty"`
	// ReasoningModel is the model that made Reasoning. A request to another
	// model leaves them out: they are encrypted for the model that made
	// them, and the request would be refused.
	ReasoningModel string `json:"reasoningModel,omitempty"`
	// ID names the transcript item the message came from (a turn id for a
	// prompt, a message id, a call id for a result), so a compaction can
	// say where the messages it keeps begin. The client does not send it.
	ID string `json:"id,omitempty"`
}

// ToolCall is a call the model asked for. Arguments is the JSON text as the
// model produced it: it may be malformed, and is the caller's to check.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// ToolSpec is a tool as the model sees it.
type ToolSpec struct {
	Name        string
	Description string
	// Parameters is a JSON Schema object; empty means no parameters.
	Parameters json.RawMessage
}

// System, User, Assistant and ToolResult build messages.
func System(text string) Message { return Message{Role: RoleSystem, Text: text} }

// User builds a user message.
func User(text string) Message { return Message{Role: RoleUser, Text: text} }

// Assistant builds an assistant message.
func Assistant(text string, calls ...ToolCall) Message {
	return Message{Role: RoleAssistant, Text: text, ToolCalls: calls}
}

// ToolResult builds the result message of one tool call.
func ToolResult(callID, result string) Message {
	return Message{Role: RoleTool, Text: result, ToolCallID: callID}
}

func buildParams(model string, req Request) (openai.ChatCompletionNewParams, error) {
	p := openai.ChatCompletionNewParams{
		Model:         shared.ChatModel(model),
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
	if req.MaxTokens > 0 {
		p.MaxCompletionTokens = openai.Int(req.MaxTokens)
	}
	for i, m := range req.Messages {
		mp, err := messageParam(m)
		if err != nil {
			return p, fmt.Errorf("message %d: %w", i, err)
		}
		p.Messages = append(p.Messages, mp)
		if m.Role == RoleTool && len(m.Images) > 0 {
			p.Messages = append(p.Messages, chatUserContent(toolImagesNote(m.ToolCallID), m.Images))
		}
	}
	for _, t := range req.Tools {
		params, err := toolParameters(t)
		if err != nil {
			return p, err
		}
		def := shared.FunctionDefinitionParam{Name: t.Name, Parameters: params}
		if t.Description != "" {
			def.Description = openai.String(t.Description)
		}
		p.Tools = append(p.Tools, openai.ChatCompletionFunctionTool(def))
	}
	return p, nil
}

// toolParameters is t's JSON schema as both APIs send it; a tool without
// parameters gets an empty object schema, which servers require.
func toolParameters(t ToolSpec) (map[string]any, error) {
	params := map[string]any{"type": "object", "properties": map[string]any{}}
	if len(t.Parameters) > 0 {
		params = map[string]any{}
		if err := json.Unmarshal(t.Parameters, &params); err != nil {
			return nil, fmt.Errorf("tool %s: parameters: %w", t.Name, err)
		}
	}
	return params, nil
}

func messageParam(m Message) (openai.ChatCompletionMessageParamUnion, error) {
	switch m.Role {
	case RoleSystem:
		return openai.SystemMessage(m.Text), nil
	case RoleUser:
		if len(m.Images) > 0 {
			return chatUserContent(m.Text, m.Images), nil
		}
		return openai.UserMessage(m.Text), nil
	case RoleTool:
		if m.ToolCallID == "" {
			return openai.ChatCompletionMessageParamUnion{}, fmt.Errorf("tool message without a call id")
		}
		return openai.ToolMessage(m.Text, m.ToolCallID), nil
	case RoleAssistant:
		a := openai.ChatCompletionAssistantMessageParam{}
		if m.Text != "" || len(m.ToolCalls) == 0 {
			a.Content.OfString = param.NewOpt(m.Text)
		}
		for _, tc := range m.ToolCalls {
			a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
					ID:       tc.ID,
					Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: tc.Name, Arguments: tc.Arguments},
				},
			})
		}
		return openai.ChatCompletionMessageParamUnion{OfAssistant: &a}, nil
	}
	return openai.ChatCompletionMessageParamUnion{}, fmt.Errorf("unknown role %q", m.Role)
}

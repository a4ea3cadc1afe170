package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"

	"gatehouse/internal/protocol"
)

// minOutputTokens is the smallest max_output_tokens the Responses API
// accepts; a smaller Request.MaxTokens (the connection test's one-token
// ping) is raised to it rather than refused by the server.
const minOutputTokens = 16

// streamResponses streams one call of the Responses API. It is stateless:
// store is false and every request carries the whole conversation, so a
// session resumed elsewhere, or a server that keeps nothing, sees the same
// input the chat path sends. include asks for the encrypted reasoning (see
// reasoning.go). It returns what arrived, how many events did, and the
// error that ended the stream (nil after response.completed).
func (c *Client) streamResponses(ctx context.Context, model string, req Request, include bool, onText func(string)) (Response, int, error) {
	params, err := buildResponseParams(model, req, include)
	if err != nil {
		return Response{}, 0, &Error{Kind: KindBadConfig, Message: err.Error(), Err: err}
	}
	stream := c.oa.Responses.NewStreaming(ctx, params)
	defer stream.Close()

	acc := responseAccumulator{onText: onText, model: model}
	events := 0
	for stream.Next() {
		events++
		if e := acc.add(stream.Current()); e != nil {
			return acc.response(), events, e
		}
		if acc.terminal {
			break
		}
	}
	err = stream.Err()
	var apiErr *openai.Error
	if errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusNotFound && apiErr.Code != "model_not_found" &&
		!strings.Contains(strings.ToLower(apiErr.Message), "model") {
		// A server that speaks only Chat Completions has no /responses
		// route: that is a setting to change, not an unknown model.
		err = &Error{Kind: KindBadConfig, Status: http.StatusNotFound, Err: err,
			Message: "The model server has no Responses API (404); use the Chat Completions API for it."}
	}
	if err == nil && events > 0 && !acc.terminal && ctx.Err() == nil {
		// Every Responses stream ends with a terminal event; one that
		// stops before it was cut off.
		err = io.ErrUnexpectedEOF
	}
	return acc.response(), events, err
}

func buildResponseParams(model string, req Request, include bool) (responses.ResponseNewParams, error) {
	p := responses.ResponseNewParams{
		Model: shared.ResponsesModel(model),
		Store: openai.Bool(false),
	}
	if include {
		p.Include = includeReasoning
	}
	if req.MaxTokens > 0 {
		p.MaxOutputTokens = openai.Int(max(req.MaxTokens, minOutputTokens))
	}
	var instructions []string
	var input responses.ResponseInputParam
	for i, m := range req.Messages {
		switch m.Role {
		case RoleSystem:
			if len(input) == 0 {
				// Leading system text is the instructions; a later one
				// (a note joining mid-conversation) keeps its place.
				instructions = append(instructions, m.Text)
			} else {
				input = append(input, responses.ResponseInputItemParamOfMessage(m.Text, responses.EasyInputMessageRoleSystem))
			}
		case RoleUser:
			if len(m.Images) > 0 {
				input = append(input, responses.ResponseInputItemParamOfMessage(responsesUserContent(m.Text, m.Images), responses.EasyInputMessageRoleUser))
				continue
			}
			input = append(input, responses.ResponseInputItemParamOfMessage(m.Text, responses.EasyInputMessageRoleUser))
		case RoleAssistant:
			input = append(input, reasoningInput(m, model)...)
			if m.Text != "" {
				input = append(input, responses.ResponseInputItemParamOfMessage(m.Text, responses.EasyInputMessageRoleAssistant))
			}
			for _, tc := range m.ToolCalls {
				input = append(input, responses.ResponseInputItemParamOfFunctionCall(tc.Arguments, tc.ID, tc.Name))
			}
		case RoleTool:
			if m.ToolCallID == "" {
				return p, fmt.Errorf("message %d: tool message without a call id", i)
			}
			out := responses.ResponseInputItemParamOfFunctionCallOutput(m.Text)
			if len(m.Images) > 0 {
				out.OfFunctionCallOutput.Output = responses.ResponseInputItemFunctionCallOutputOutputUnionParam{
					OfResponseFunctionCallOutputItemArray: responsesToolOutput(m.Text, m.Images)}
			}
			out.OfFunctionCallOutput.CallID = openai.String(m.ToolCallID)
			input = append(input, out)
		default:
			return p, fmt.Errorf("message %d: unknown role %q", i, m.Role)
		}
	}
	if len(instructions) > 0 {
		p.Instructions = openai.String(strings.Join(instructions, "\n\n"))
	}
	p.Input.OfInputItemList = input
	for _, t := range req.Tools {
		params, err := toolParameters(t)
		if err != nil {
			return p, err
		}
		// Not strict: strict mode requires every property to be listed as
		// required, which the tools' schemas do not promise.
		tool := responses.ToolParamOfFunction(t.Name, params, false)
		if t.Description != "" {
			tool.OfFunction.Description = openai.String(t.Description)
		}
		p.Tools = append(p.Tools, tool)
	}
	return p, nil
}

// responseAccumulator builds a Response from Responses stream events. The
// output items are kept by output_index, so parallel function calls whose
// argument deltas interleave each get their own arguments, and the final
// order is the model's.
type responseAccumulator struct {
	onText   func(string)
	model    string // the request's, for Message.ReasoningModel
	items    map[int64]*outputItem
	finish   string
	usage    protocol.Usage
	terminal bool // response.completed, .incomplete or .failed arrived
}

type outputItem struct {
	typ       string // "message", "function_call", "reasoning", ...
	text      strings.Builder
	streamed  bool // text arrived as deltas
	call      ToolCall
	reasoning json.RawMessage // a finished reasoning item worth sending back
}

func (a *responseAccumulator) item(index int64) *outputItem {
	if a.items == nil {
		a.items = map[int64]*outputItem{}
	}
	it := a.items[index]
	if it == nil {
		it = &outputItem{}
		a.items[index] = it
	}
	return it
}

func (a *responseAccumulator) text(s string) {
	if s != "" && a.onText != nil {
		a.onText(s)
	}
}

// add takes one event; a non-nil *Error ends the stream.
func (a *responseAccumulator) add(ev responses.ResponseStreamEventUnion) *Error {
	switch ev.Type {
	case "response.output_item.added":
		it := a.item(ev.OutputIndex)
		it.typ = ev.Item.Type
		if it.typ == "function_call" {
			it.call = ToolCall{ID: ev.Item.CallID, Name: ev.Item.Name, Arguments: ev.Item.Arguments.OfString}
		}
	case "response.output_text.delta", "response.refusal.delta":
		it := a.item(ev.OutputIndex)
		if it.typ == "" {
			it.typ = "message"
		}
		it.text.WriteString(ev.Delta)
		it.streamed = true
		a.text(ev.Delta)
	case "response.function_call_arguments.delta":
		it := a.item(ev.OutputIndex)
		it.typ = "function_call"
		it.call.Arguments += ev.Delta
	case "response.output_item.done":
		a.done(ev.OutputIndex, ev.Item)
	case "response.completed", "response.incomplete":
		a.terminal = true
		for i, out := range ev.Response.Output {
			a.done(int64(i), out)
		}
		a.usage = usageOf(ev.Response.Usage)
		a.finish = "stop"
		if ev.Type == "response.incomplete" {
			a.finish = finishOfIncomplete(ev.Response.IncompleteDetails.Reason)
		} else if len(a.calls()) > 0 {
			a.finish = "tool_calls"
		}
	case "response.failed":
		a.terminal = true
		a.usage = usageOf(ev.Response.Usage)
		e := ev.Response.Error
		return fromStatus(0, string(e.Code), e.Type, e.Message, nil)
	case "error":
		return fromStatus(0, ev.Code, "", ev.Message, nil)
	}
	return nil
}

// done takes an output item in its final form. For a function call it is
// the authority on the arguments; for a message whose text came without
// deltas (some servers send only the finished item) it is the text, which
// is then reported to onText too.
func (a *responseAccumulator) done(index int64, out responses.ResponseOutputItemUnion) {
	it := a.item(index)
	it.typ = out.Type
	switch out.Type {
	case "reasoning":
		if r := keepReasoning(out); r != nil {
			it.reasoning = r
		}
	case "function_call":
		args := out.Arguments.OfString
		if args == "" {
			args = it.call.Arguments
		}
		it.call = ToolCall{ID: out.CallID, Name: out.Name, Arguments: args}
	case "message":
		if it.streamed {
			return
		}
		var b strings.Builder
		for _, c := range out.Content {
			b.WriteString(c.Text)
			b.WriteString(c.Refusal)
		}
		if b.Len() > 0 {
			it.text.Reset()
			it.text.WriteString(b.String())
			it.streamed = true
			a.text(b.String())
		}
	}
}

func (a *responseAccumulator) indices() []int64 {
	var idx []int64
	for i := range a.items {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	return idx
}

func (a *responseAccumulator) calls() []ToolCall {
	var calls []ToolCall
	for _, i := range a.indices() {
		if it := a.items[i]; it.typ == "function_call" && it.call.ID != "" {
			calls = append(calls, it.call)
		}
	}
	return calls
}

// response is what arrived so far, in the chat vocabulary the loop knows.
func (a *responseAccumulator) response() Response {
	r := Response{FinishReason: a.finish, Usage: a.usage}
	r.Message.Role = RoleAssistant
	var text strings.Builder
	for _, i := range a.indices() {
		switch it := a.items[i]; {
		case it.typ == "message":
			text.WriteString(it.text.String())
		case it.typ == "reasoning" && it.reasoning != nil:
			r.Message.Reasoning = append(r.Message.Reasoning, it.reasoning)
		}
	}
	if len(r.Message.Reasoning) > 0 {
		r.Message.ReasoningModel = a.model
	}
	r.Message.Text = text.String()
	r.Message.ToolCalls = a.calls()
	return r
}

func usageOf(u responses.ResponseUsage) protocol.Usage {
	return protocol.Usage{
		PromptTokens:     u.InputTokens,
		CompletionTokens: u.OutputTokens,
		TotalTokens:      u.TotalTokens,
		CachedTokens:     u.InputTokensDetails.CachedTokens,
	}
}

// finishOfIncomplete maps incomplete_details.reason onto Chat Completions'
// finish reasons.
func finishOfIncomplete(reason string) string {
	switch reason {
	case "max_output_tokens", "":
		return "length"
	case "content_filter":
		return "content_filter"
	}
	return reason
}

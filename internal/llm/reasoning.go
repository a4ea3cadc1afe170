package llm

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
)

// Reasoning across tool calls on the Responses API.
//
// Requests are stateless (store: false), so OpenAI keeps nothing of a
// reasoning model's reasoning between the steps of a tool loop. It hands the
// reasoning out encrypted when a request includes
// "reasoning.encrypted_content"; the accumulator keeps those items on the
// assistant Message (Message.Reasoning) and the next request sends them back
// as input items, where they were.
//
// Other servers implement /responses too (vLLM, Ollama, LM Studio); some
// refuse the include with a 400. The Client then retries that call once
// without it and never sends it again for that model (Client.noInclude):
// the same server may serve another model that accepts it. A server that
// just returns no reasoning items needs nothing: there is nothing to send
// back.

// includeReasoning is what a Responses request asks for unless the server
// refused it.
var includeReasoning = []responses.ResponseIncludable{responses.ResponseIncludableReasoningEncryptedContent}

// streamResponsesFallback streams one Responses call, asking for the
// encrypted reasoning unless this server refused it before. When the server
// refuses it now (see refusesInclude), before any event arrived, it is
// retried once without, and the Client remembers not to ask again.
func (c *Client) streamResponsesFallback(ctx context.Context, model string, req Request, onText func(string)) (Response, int, error) {
	_, refused := c.noInclude.Load(model)
	include := !refused
	resp, events, err := c.streamResponses(ctx, model, req, include, onText)
	if include && events == 0 && refusesInclude(err) {
		c.noInclude.Store(model, struct{}{})
		// The retry is another request, not another attempt at the same:
		// "tried 2 times" would tell the user the server is flaky.
		if n, ok := ctx.Value(attemptsKey{}).(*atomic.Int32); ok {
			n.Store(0)
		}
		resp, events, err = c.streamResponses(ctx, model, req, false, onText)
	}
	return resp, events, err
}

// refusesInclude reports whether err is a server's 400 about the include
// parameter or the encrypted reasoning it asks for: OpenAI's param
// "include" ("Encrypted content is not supported with this model."), or a
// validator naming the field ('include', "include" or `include`). A bare
// mention of "reasoning" or "include" is not enough: other 400s (a bad
// reasoning effort, "messages must include ...") must surface as they are
// rather than switch the include off for good.
func refusesInclude(err error) bool {
	var apiErr *openai.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusBadRequest {
		return false
	}
	if strings.HasPrefix(apiErr.Param, "include") {
		return true
	}
	msg := strings.ToLower(apiErr.Message)
	for _, s := range []string{"encrypted_content", "encrypted content", "'include'", `"include"`, "`include`"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// reasoningInput returns m's reasoning items as input items, in order, to
// go right before m's text and calls. An assistant message with neither has
// no reasoning to send: OpenAI refuses a reasoning item without the item it
// led to. Neither is reasoning made by another model than the request's
// sent: it is encrypted for the model that made it.
func reasoningInput(m Message, model string) []responses.ResponseInputItemUnionParam {
	if m.Text == "" && len(m.ToolCalls) == 0 {
		return nil
	}
	if m.ReasoningModel != "" && m.ReasoningModel != model {
		return nil
	}
	var out []responses.ResponseInputItemUnionParam
	for _, r := range m.Reasoning {
		out = append(out, param.Override[responses.ResponseInputItemUnionParam](r))
	}
	return out
}

// keepReasoning returns a finished reasoning output item as Message.Reasoning
// keeps it, or nil. Only an item with encrypted_content is worth keeping:
// without it the item names reasoning the server did not store (store:
// false), and sending it back would be refused as an unknown item.
func keepReasoning(out responses.ResponseOutputItemUnion) json.RawMessage {
	if out.Type != "reasoning" || out.EncryptedContent == "" || out.RawJSON() == "" {
		return nil
	}
	return json.RawMessage(out.RawJSON())
}

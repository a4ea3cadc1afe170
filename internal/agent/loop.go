package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"gatehouse/internal/llm"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

// Run runs one turn for prompt. It returns when the turn stops; cancelling
// ctx stops the model stream and any running tool, and the turn ends as
// cancelled. Turns of one Agent never overlap: a second Run waits.
func (a *Agent) Run(ctx context.Context, turnID, prompt string) Outcome {
	return a.RunPrompt(ctx, turnID, Prompt{Text: prompt})
}

// RunPrompt runs one turn for p, its text and its images, as Run does.
func (a *Agent) RunPrompt(ctx context.Context, turnID string, pr Prompt) Outcome {
	prompt := pr.Text
	a.turn.Lock()
	defer a.turn.Unlock()
	if turnID == "" {
		turnID = a.newID("turn")
	}
	a.turnID.Store(&turnID)
	defer a.turnID.Store(nil)
	replaces := ""
	if pr.Replaces != "" && a.dropTurn(pr.Replaces) {
		replaces = pr.Replaces
	}
	a.emit(turnID, protocol.TurnStarted, protocol.TurnStartedPayload{Prompt: prompt, Images: refs(pr.Images), Replaces: replaces})
	a.mu.Lock()
	a.undo = nil // a compaction can be undone only before the next turn
	a.mu.Unlock()
	a.resolveWindow(ctx)
	user := llm.User(prompt)
	user.ID, user.Images = turnID, llmImages(pr.Images)
	a.appendHistory(user)
	out := a.loop(ctx, turnID)
	out.TurnID = turnID
	p := protocol.TurnStoppedPayload{Reason: out.Reason, Usage: out.Usage, Model: out.Model, Context: a.contextUse(out), Blocked: out.Blocked, Plan: out.Plan,
		Cost: out.Cost, Budget: out.Budget}
	if out.Err != nil {
		p.Error = out.Err.Error()
		p.ErrorKind = string(llm.KindOf(out.Err))
	}
	a.emit(turnID, protocol.TurnStopped, p)
	return out
}

func (a *Agent) loop(ctx context.Context, turnID string) Outcome {
	var out Outcome
	refused := false       // the last request was refused as too long
	summaryFailed := false // a checkpoint summary failed this turn
	for step := 0; ; step++ {
		if ctx.Err() != nil {
			out.Reason = protocol.StopCancelled
			return out
		}
		if step >= a.cfg.MaxSteps {
			out.Reason = protocol.StopMaxSteps
			return out
		}
		if stop := a.overBudget(); stop != nil {
			out.Reason, out.Budget = protocol.StopBudgetExhausted, stop
			return out
		}
		if a.cfg.Notes != nil {
			for _, n := range a.cfg.Notes() {
				a.appendHistory(llm.User(n))
			}
		}
		// Read before every request: tools added or removed meanwhile (an
		// MCP server, a Go caller) are what this request offers.
		a.updateSees()
		specs := a.toolSpecs()
		msgs, trimmed, size := a.fit(specs)
		out.Trimmed += trimmed
		if !summaryFailed && a.pastCompactAt(size) {
			ok, used, err := a.compact(ctx, turnID, specs, false)
			out.Usage = out.Usage.Add(used)
			a.spend(&out, "", used)
			switch {
			case ok:
				out.Compactions++
				msgs, trimmed, size = a.fit(specs)
				out.Trimmed += trimmed
			case err != nil && ctx.Err() != nil:
				out.Reason = protocol.StopCancelled
				return out
			case err != nil:
				// No reason to stop: the request may still fit, and a
				// refusal compacts again. Not asked again this turn.
				summaryFailed = true
			}
		}
		// Prefixed with the turn, so ids stay unique in a resumed session
		// (whose agent counts from 1 again).
		msgID := a.newID(turnID + "-msg")
		resp, err := a.cfg.Model.Stream(ctx, llm.Request{Messages: msgs, Tools: specs}, func(text string) {
			a.emit(turnID, protocol.MessageDelta, protocol.MessageDeltaPayload{MessageID: msgID, Text: text})
		})
		out.Usage = out.Usage.Add(resp.Usage)
		if resp.Model != "" {
			out.Model = resp.Model
		}
		a.spend(&out, resp.Model, resp.Usage)
		if resp.Usage.PromptTokens > 0 {
			out.ContextTokens, out.ContextEstimated = resp.Usage.PromptTokens, false
			a.observe(resp.Usage.PromptTokens, msgs, specs)
		} else {
			out.ContextTokens, out.ContextEstimated = int64(size), true
		}
		if err != nil && llm.KindOf(err) == llm.KindContextOverflow && ctx.Err() == nil && resp.Message.Text == "" {
			if !refused {
				// Never fatal at once: learn from the refusal, compact,
				// and try once more.
				refused = true
				a.learnFromRefusal(err, size)
				ok, used, _ := a.compact(ctx, turnID, specs, false)
				out.Usage = out.Usage.Add(used)
				a.spend(&out, "", used)
				if ok {
					out.Compactions++
				}
				step--
				continue
			}
			err = &llm.Error{Kind: llm.KindContextOverflow, Err: err,
				Message: "The conversation is still too long for the model's context window after compacting it; start a new session or raise the window. (" + err.Error() + ")"}
		}
		if err == nil {
			refused = false
		}
		if err != nil {
			cancelled := ctx.Err() != nil || llm.KindOf(err) == llm.KindCancelled
			// Keep what arrived; drop half-streamed tool calls, which never
			// ran, and the reasoning, which led to them.
			a.emit(turnID, protocol.MessageDone, protocol.MessageDonePayload{MessageID: msgID, Text: resp.Message.Text, Cancelled: cancelled})
			if resp.Message.Text != "" {
				m := llm.Assistant(resp.Message.Text)
				m.ID = msgID
				a.appendHistory(m)
			}
			if cancelled {
				out.Reason = protocol.StopCancelled
				return out
			}
			out.Reason, out.Err = protocol.StopError, err
			return out
		}
		resp.Message.ID = msgID
		a.emit(turnID, protocol.MessageDone, protocol.MessageDonePayload{MessageID: msgID, Text: resp.Message.Text,
			Reasoning: resp.Message.Reasoning, ReasoningModel: resp.Message.ReasoningModel})
		a.appendHistory(resp.Message)
		if len(resp.Message.ToolCalls) == 0 {
			out.Reason = protocol.StopCompleted
			return out
		}
		if reason, err := a.runCalls(ctx, turnID, resp.Message.ToolCalls, &out); reason != "" {
			out.Reason, out.Err = reason, err
			return out
		}
	}
}

// runCalls runs the calls of one model response in order. It returns a stop
// reason when the turn must stop; every call then has a result.
func (a *Agent) runCalls(ctx context.Context, turnID string, calls []llm.ToolCall, out *Outcome) (protocol.StopReason, error) {
	for i, c := range calls {
		if ctx.Err() != nil {
			a.notRun(turnID, calls[i:], protocol.StopCancelled)
			return protocol.StopCancelled, nil
		}
		args := argsForEvent(c.Arguments)
		a.emit(turnID, protocol.ToolStarted, protocol.ToolStartedPayload{CallID: c.ID, Tool: c.Name, Args: args})
		start := time.Now()
		res, err := a.cfg.Tools.Run(tools.WithTurn(ctx, turnID), tools.Call{ID: c.ID, Name: c.Name, Args: json.RawMessage(c.Arguments)})
		if err != nil {
			res = tools.Fail("internal_error", fmt.Sprintf("%s failed inside Gatehouse: %v", c.Name, err), "")
		}
		a.finish(turnID, c, res, time.Since(start))
		switch {
		case err != nil && ctx.Err() == nil:
			a.notRun(turnID, calls[i+1:], protocol.StopError)
			return protocol.StopError, fmt.Errorf("tool %s failed: %w", c.Name, err)
		case res.Rejected:
			out.Blocked = &protocol.Blocked{CallID: c.ID, Tool: c.Name, Note: res.Note}
			a.notRun(turnID, calls[i+1:], protocol.StopBlockedByApproval)
			return protocol.StopBlockedByApproval, nil
		case ctx.Err() != nil:
			a.notRun(turnID, calls[i+1:], protocol.StopCancelled)
			return protocol.StopCancelled, nil
		case res.Plan != "" && !res.IsError:
			// The plan waits for the user: nothing after it runs.
			out.Plan = &protocol.ProposedPlan{CallID: c.ID, Plan: res.Plan}
			a.notRun(turnID, calls[i+1:], protocol.StopCompleted)
			return protocol.StopCompleted, nil
		}
	}
	return "", nil
}

// finish reports a call's end; d is the time from its start to its end,
// of which res.Waited went to waiting for the user's approval and
// res.Throttled to waiting for the calls-per-minute limit.
func (a *Agent) finish(turnID string, c llm.ToolCall, res tools.Result, d time.Duration) {
	a.emit(turnID, protocol.ToolFinished, protocol.ToolFinishedPayload{
		CallID: c.ID, Tool: c.Name, Result: res.Output, IsError: res.IsError,
		DurationMs: max(d-res.Waited-res.Throttled, 0).Milliseconds(), WaitMs: res.Waited.Milliseconds(),
		ThrottledMs: res.Throttled.Milliseconds(), Approval: res.Approval,
		Images: refs(res.Images), Hooks: res.Hooks, Rewrite: res.Rewrite})
	m := llm.ToolResult(c.ID, string(res.Output))
	m.ID, m.Images = c.ID, llmImages(res.Images)
	a.appendHistory(m)
}

// notRun gives each call a result saying it did not run and why.
func (a *Agent) notRun(turnID string, calls []llm.ToolCall, why protocol.StopReason) {
	for _, c := range calls {
		a.emit(turnID, protocol.ToolStarted, protocol.ToolStartedPayload{CallID: c.ID, Tool: c.Name, Args: argsForEvent(c.Arguments)})
		msg := fmt.Sprintf("not run: the turn stopped (%s) before this call ran", why)
		a.finish(turnID, c, tools.Fail(tools.CodeNotRun, msg, ""), 0)
	}
}

// argsForEvent keeps the model's arguments as JSON for the UI: valid JSON as
// is, anything else as a JSON string of the raw text.
func argsForEvent(raw string) json.RawMessage {
	if raw == "" {
		return json.RawMessage("{}")
	}
	if json.Valid([]byte(raw)) {
		return json.RawMessage(raw)
	}
	b, _ := json.Marshal(raw)
	return b
}

func (a *Agent) toolSpecs() []llm.ToolSpec {
	if a.cfg.Tools == nil {
		return nil
	}
	var out []llm.ToolSpec
	for _, s := range a.cfg.Tools.Specs() {
		if s.Name == ViewImageTool && !a.canSee() {
			continue
		}
		out = append(out, llm.ToolSpec{Name: s.Name, Description: s.Description, Parameters: s.Parameters})
	}
	return out
}

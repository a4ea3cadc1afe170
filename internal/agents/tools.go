package agents

import (
	"context"
	"encoding/json"
	"fmt"

	"gatehouse/internal/agent"
	"gatehouse/internal/approval"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

// provider offers the manager's tools on the session's surface.
type provider struct{ m *Manager }

func (p provider) Name() string { return ProviderName }

// Tools are delegate_<name> per definition and the four subagent tools.
// What a child does passes the gate call by call, labelled with the agent;
// besides, a tool that starts a child declares what the child can do (it is
// read-only only when the child can only read), and subagent_stop acts, as
// bash stop does: in safe mode they ask.
func (p provider) Tools() []tools.Tool {
	defs := p.m.Definitions()
	out := make([]tools.Tool, 0, len(defs)+4)
	for _, d := range defs {
		out = append(out, delegateTool{p.m, d})
	}
	return append(out, startTool{p.m}, statusTool{p.m}, resultTool{p.m}, stopTool{p.m})
}

// Tool names of the background children.
const (
	ToolStart  = "subagent_start"
	ToolStatus = "subagent_status"
	ToolResult = "subagent_result"
	ToolStop   = "subagent_stop"
	// DelegatePrefix + a definition's name is its delegate tool.
	DelegatePrefix = "delegate_"
)

type delegateTool struct {
	m *Manager
	d Definition
}

func (t delegateTool) Spec() tools.Spec {
	return tools.Spec{Name: DelegatePrefix + t.d.Name, ReadOnly: readsOnly(t.d),
		Description: fmt.Sprintf("Hand a task to the %s agent and wait for its answer. %s It starts fresh: give it everything it needs in task and context.", t.d.Name, t.d.Description),
		Parameters: json.RawMessage(`{"type":"object","properties":{` +
			`"task":{"type":"string","description":"What the agent should do, in full."},` +
			`"context":{"type":"string","description":"What the agent should know that is not in the workspace."}},` +
			`"required":["task"],"additionalProperties":false}`)}
}

func (t delegateTool) Run(ctx context.Context, args json.RawMessage) (tools.Result, error) {
	var a struct {
		Task    string `json:"task"`
		Context string `json:"context"`
	}
	if res, ok := tools.DecodeArgs(args, &a); !ok {
		return res, nil
	}
	if a.Task == "" {
		return tools.Fail(tools.CodeInvalidArguments, "task is empty", ""), nil
	}
	call, _ := tools.CallFrom(ctx)
	info, err := t.m.Delegate(ctx, t.d.Name, prompt(a.Task, a.Context), call.ID)
	if err != nil {
		return tools.Fail(CodeAgentFailed, err.Error(), ""), nil
	}
	out := agent.Outcome{Reason: protocol.StopReason(info.Status), Blocked: info.Blocked}
	switch out.Reason {
	case protocol.StopBlockedByApproval:
		// The parent's turn stops as if its own call had been rejected.
		note := ""
		if out.Blocked != nil {
			note = out.Blocked.Note
		}
		res := approval.Rejected(note)
		res.Output, _ = json.Marshal(map[string]any{"ok": false, "error": map[string]string{
			"code": tools.CodeApprovalRejected, "message": rejectedMessage(info)}})
		return res, nil
	case protocol.StopCancelled:
		if ctx.Err() != nil {
			return tools.Fail(tools.CodeNotRun, "the turn was cancelled while the "+t.d.Name+" agent worked", ""), nil
		}
	}
	return tools.OK(answer(info))
}

// CodeAgentFailed: the child could not be started.
const CodeAgentFailed = "agent_failed"

func rejectedMessage(info ChildInfo) string {
	msg := fmt.Sprintf("[approval-rejected] the user rejected the %s agent's call", info.Agent)
	if info.Blocked != nil {
		msg = fmt.Sprintf("[approval-rejected] the user rejected the %s agent's %s call", info.Agent, info.Blocked.Tool)
		if info.Blocked.Note != "" {
			msg += ": " + info.Blocked.Note
		}
	}
	return msg
}

// answer is what a delegate call or subagent_result returns: the answer,
// and the stop reason when the child did not complete.
func answer(info ChildInfo) map[string]any {
	out := map[string]any{"agent": info.Agent, "id": info.ID, "answer": info.Answer}
	if info.Status != string(protocol.StopCompleted) {
		out["stopReason"] = info.Status
	}
	if info.Error != "" {
		out["error"] = info.Error
	}
	if info.Blocked != nil {
		out["blocked"] = info.Blocked
	}
	return out
}

type startTool struct{ m *Manager }

func (t startTool) Spec() tools.Spec {
	return tools.Spec{Name: ToolStart,
		Description: "Start an agent on a task in the background and return its id at once. It keeps working after your turn; its result reaches you with a later message, or ask subagent_result. Agents: " + t.m.agentList(),
		Parameters:  json.RawMessage(`{"type":"object","properties":{"agent":{"type":"string"},"task":{"type":"string"}},"required":["agent","task"],"additionalProperties":false}`)}
}

// ReadOnlyCall implements tools.CallClassifier: starting an agent that can
// only read only reads.
func (t startTool) ReadOnlyCall(args json.RawMessage) bool {
	var a struct{ Agent string }
	if json.Unmarshal(args, &a) != nil {
		return false
	}
	d, _, ok := t.m.definition(a.Agent)
	return ok && readsOnly(d)
}

func (t startTool) Run(ctx context.Context, args json.RawMessage) (tools.Result, error) {
	var a struct{ Agent, Task string }
	if res, ok := tools.DecodeArgs(args, &a); !ok {
		return res, nil
	}
	if a.Task == "" {
		return tools.Fail(tools.CodeInvalidArguments, "task is empty", ""), nil
	}
	call, _ := tools.CallFrom(ctx)
	c, err := t.m.spawn(a.Agent, a.Task, call.ID, true)
	if err != nil {
		return tools.Fail(CodeAgentFailed, err.Error(), ""), nil
	}
	go func() {
		defer t.m.wg.Done()
		defer c.cancel()
		t.m.run(c.ctx, c, a.Task)
		t.m.backgroundEnded(c)
	}()
	return tools.OK(map[string]string{"id": c.ID, "agent": c.Agent, "status": "running"})
}

func (m *Manager) agentList() string {
	m.dmu.RLock()
	defer m.dmu.RUnlock()
	s := ""
	for i, n := range m.names {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}

var idParams = json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false}`)

type statusTool struct{ m *Manager }

func (t statusTool) Spec() tools.Spec {
	return tools.Spec{Name: ToolStatus, ReadOnly: true, Parameters: idParams,
		Description: "Say whether a background agent is running, and how far it got."}
}

func (t statusTool) Run(_ context.Context, args json.RawMessage) (tools.Result, error) {
	c, res, ok := t.m.decodeID(args)
	if !ok {
		return res, nil
	}
	info := c.Info()
	return tools.OK(map[string]any{"id": info.ID, "agent": info.Agent, "status": info.Status, "toolCalls": info.ToolCalls})
}

type resultTool struct{ m *Manager }

func (t resultTool) Spec() tools.Spec {
	return tools.Spec{Name: ToolResult, ReadOnly: true,
		Description: "A background agent's answer. With wait, wait for it to end; without, a running agent reports running.",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"},"wait":{"type":"boolean"}},"required":["id"],"additionalProperties":false}`)}
}

func (t resultTool) Run(ctx context.Context, args json.RawMessage) (tools.Result, error) {
	var a struct {
		ID   string `json:"id"`
		Wait bool   `json:"wait"`
	}
	if res, ok := tools.DecodeArgs(args, &a); !ok {
		return res, nil
	}
	c, res, ok := t.m.lookup(a.ID)
	if !ok {
		return res, nil
	}
	if a.Wait {
		select {
		case <-c.done:
		case <-ctx.Done():
			return tools.Fail(tools.CodeNotRun, "the turn was cancelled while waiting for "+a.ID, ""), nil
		}
	}
	select {
	case <-c.done:
	default:
		return tools.OK(map[string]string{"id": c.ID, "agent": c.Agent, "status": "running"})
	}
	c.mu.Lock()
	c.delivered = true // the model has it: no note with the next turn
	c.mu.Unlock()
	return tools.OK(answer(c.Info()))
}

type stopTool struct{ m *Manager }

func (t stopTool) Spec() tools.Spec {
	return tools.Spec{Name: ToolStop, Parameters: idParams,
		Description: "Stop a background agent (its processes end with it) and return what it had."}
}

func (t stopTool) Run(_ context.Context, args json.RawMessage) (tools.Result, error) {
	c, res, ok := t.m.decodeID(args)
	if !ok {
		return res, nil
	}
	if !c.Background {
		return tools.Fail(tools.CodeInvalidArguments, c.ID+" is not a background subagent", ""), nil
	}
	c.mu.Lock()
	c.delivered = true
	c.mu.Unlock()
	info, _ := t.m.Stop(c.ID)
	return tools.OK(answer(info))
}

func (m *Manager) decodeID(args json.RawMessage) (*Child, tools.Result, bool) {
	var a struct {
		ID string `json:"id"`
	}
	if res, ok := tools.DecodeArgs(args, &a); !ok {
		return nil, res, false
	}
	return m.lookup(a.ID)
}

// lookup returns child id, or the not_found result the model reads.
func (m *Manager) lookup(id string) (*Child, tools.Result, bool) {
	c, ok := m.child(id)
	if !ok {
		return nil, tools.Fail(tools.CodeNotFound, fmt.Sprintf("no subagent %q", id), ""), false
	}
	return c, tools.Result{}, true
}

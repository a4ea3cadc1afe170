package team

import (
	"context"
	"encoding/json"
	"fmt"

	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

// Tool names.
const (
	ToolSpawn   = "team_spawn"
	ToolMessage = "team_message"
	ToolTasks   = "team_tasks"
	ToolUpdate  = "team_task_update"
	ToolStop    = "team_stop"
)

// memberTools are the team tools a teammate has, whatever its
// definition's tool list says.
var memberTools = []string{ToolMessage, ToolTasks, ToolUpdate}

// Error codes of the team tools' results.
const (
	// CodeTeamCap: a cap on messages refused the message.
	CodeTeamCap = "team_cap"
	// CodeTeamFailed: a teammate could not be spawned or stopped.
	CodeTeamFailed = "team_failed"
)

// leadProvider offers the lead the five team tools. Its children (and
// teammates) do not get it: ForChild leaves it out.
type leadProvider struct{ t *Team }

func (p leadProvider) Name() string { return ProviderName }

func (p leadProvider) Tools() []tools.Tool {
	return []tools.Tool{spawnTool{p.t}, messageTool{p.t, protocol.TeamLead}, tasksTool{p.t},
		updateTool{p.t, protocol.TeamLead}, stopTool{p.t}}
}

// ForChild leaves the lead's team tools out of every child session.
func (p leadProvider) ForChild() tools.Provider { return nil }

// memberProvider offers teammate name its three team tools.
type memberProvider struct {
	t    *Team
	name string
}

func (p memberProvider) Name() string { return ProviderName }

func (p memberProvider) Tools() []tools.Tool {
	return []tools.Tool{messageTool{p.t, p.name}, tasksTool{p.t}, updateTool{p.t, p.name}}
}

// ForChild leaves a teammate's team tools out of its own children.
func (p memberProvider) ForChild() tools.Provider { return nil }

type spawnTool struct{ t *Team }

func (s spawnTool) Spec() tools.Spec {
	return tools.Spec{Name: ToolSpawn,
		Description: "Start a teammate: a long-lived agent with its own session that works on task beside you, reads and updates the shared task board and messages you and the other teammates. It keeps working after your turn and sleeps when done; a message wakes it. Its calls ask the user as yours do. " +
			"With worktree, it works in a git worktree of its own (branch gatehouse/team-<name>, folder <repo>.worktrees/team-<name> beside the repository, made from the current branch, with the untracked files the user set to copy into new worktrees; one left by an earlier teammate of that name is taken as it is): its files and commands are bound to it, not to your workspace, so it never writes the files you or the others edit. " +
			"Stopping the teammate or closing the session keeps that worktree and its branch, as a worktree session: the user merges, keeps or discards it (the Worktrees view, `gatehouse worktree`). A workspace outside a git repository cannot have one. Agents: " + s.agentList(),
		Parameters: json.RawMessage(`{"type":"object","properties":{` +
			`"name":{"type":"string","description":"The teammate's name in the team: lower-case letters, digits, - and _."},` +
			`"agent":{"type":"string","description":"The agent definition it runs."},` +
			`"task":{"type":"string","description":"What it should do, in full: it starts fresh."},` +
			`"worktree":{"type":"boolean","description":"Work in a git worktree of its own instead of your workspace (default false)."}},` +
			`"required":["name","agent","task"],"additionalProperties":false}`)}
}

func (s spawnTool) agentList() string {
	out := ""
	for i, d := range s.t.agents.Definitions() {
		if i > 0 {
			out += ", "
		}
		out += d.Name
	}
	return out
}

// ReadOnlyCall implements tools.CallClassifier: a teammate that can only
// read only reads, unless a worktree is made for it (a write: a folder
// and a branch).
func (s spawnTool) ReadOnlyCall(args json.RawMessage) bool {
	var a struct {
		Agent    string
		Worktree bool
	}
	return json.Unmarshal(args, &a) == nil && !a.Worktree && s.t.agents.ReadsOnly(a.Agent)
}

func (s spawnTool) Run(ctx context.Context, args json.RawMessage) (tools.Result, error) {
	var a struct {
		Name, Agent, Task string
		Worktree          bool
	}
	if res, ok := tools.DecodeArgs(args, &a); !ok {
		return res, nil
	}
	call, _ := tools.CallFrom(ctx)
	info, err := s.t.spawn(ctx, a.Name, a.Agent, a.Task, call.ID, a.Worktree)
	if err != nil {
		return tools.Fail(CodeTeamFailed, err.Error(), ""), nil
	}
	out := map[string]string{"name": info.Name, "agent": info.Agent, "state": string(info.State)}
	if info.Worktree != "" {
		out["worktree"], out["branch"] = info.Worktree, info.WorktreeBranch
	}
	return tools.OK(out)
}

type messageTool struct {
	t    *Team
	from string
}

func (m messageTool) Spec() tools.Spec {
	return tools.Spec{Name: ToolMessage, ReadOnly: true,
		Description: "Send a message to a teammate by name, to \"lead\", or to \"all\". An idle teammate wakes to read it; a working one reads it with its next step.",
		Parameters: json.RawMessage(`{"type":"object","properties":{` +
			`"to":{"type":"string","description":"A teammate's name, \"lead\" or \"all\"."},` +
			`"text":{"type":"string"}},"required":["to","text"],"additionalProperties":false}`)}
}

func (m messageTool) Run(_ context.Context, args json.RawMessage) (tools.Result, error) {
	var a struct{ To, Text string }
	if res, ok := tools.DecodeArgs(args, &a); !ok {
		return res, nil
	}
	msg, code, err := m.t.send(m.from, a.To, a.Text)
	if err != nil {
		return tools.Fail(code, err.Error(), ""), nil
	}
	return tools.OK(map[string]string{"id": msg.ID, "to": msg.To, "status": "sent"})
}

type tasksTool struct{ t *Team }

func (tasksTool) Spec() tools.Spec {
	return tools.Spec{Name: ToolTasks, ReadOnly: true,
		Description: "Read the team's task board (each task's status, owner, dependencies and notes) and who is on the team.",
		Parameters:  json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)}
}

func (t tasksTool) Run(context.Context, json.RawMessage) (tools.Result, error) {
	st := t.t.State()
	members := make([]map[string]string, 0, len(st.Teammates))
	for _, m := range st.Teammates {
		members = append(members, map[string]string{"name": m.Name, "agent": m.Agent, "state": string(m.State)})
	}
	return tools.OK(map[string]any{"tasks": st.Board, "teammates": members})
}

type updateTool struct {
	t  *Team
	by string
}

func (u updateTool) Spec() tools.Spec {
	return tools.Spec{Name: ToolUpdate, ReadOnly: true,
		Description: "Add or change a task of the team's board. A new id adds a task (give its title). status: open, in_progress, blocked or done (done only once every task it depends on is done). owner: a teammate's name or \"lead\" (\"\" frees it). note: a line added to the task. dependsOn: the ids of tasks to finish first.",
		Parameters: json.RawMessage(`{"type":"object","properties":{` +
			`"id":{"type":"string"},` +
			`"status":{"type":"string","enum":["open","in_progress","blocked","done"]},` +
			`"owner":{"type":"string"},"note":{"type":"string"},"title":{"type":"string"},` +
			`"dependsOn":{"type":"array","items":{"type":"string"}}},` +
			`"required":["id","status"],"additionalProperties":false}`)}
}

func (u updateTool) Run(_ context.Context, args json.RawMessage) (tools.Result, error) {
	var a update
	if res, ok := tools.DecodeArgs(args, &a); !ok {
		return res, nil
	}
	task, err := u.t.updateTask(u.by, a)
	if err != nil {
		return tools.Fail(tools.CodeInvalidArguments, err.Error(), ""), nil
	}
	return tools.OK(task)
}

type stopTool struct{ t *Team }

func (stopTool) Spec() tools.Spec {
	return tools.Spec{Name: ToolStop,
		Description: "Stop a teammate: its turn is cancelled and its processes end; nothing wakes it again.",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}`)}
}

func (s stopTool) Run(_ context.Context, args json.RawMessage) (tools.Result, error) {
	var a struct{ Name string }
	if res, ok := tools.DecodeArgs(args, &a); !ok {
		return res, nil
	}
	info, err := s.t.Stop(a.Name, "the lead stopped it")
	if err != nil {
		return tools.Fail(CodeTeamFailed, err.Error(), ""), nil
	}
	return tools.OK(map[string]string{"name": info.Name, "state": string(info.State), "lastReason": info.Reason})
}

// Stop stops teammate name for why (team_stop, the window's stop button).
func (t *Team) Stop(name, why string) (protocol.Teammate, error) {
	info, err := t.stop(name, why)
	if err != nil {
		return info, err
	}
	t.mu.Lock()
	t.noticeLocked(protocol.TeamNotice{Kind: protocol.NoticeStopped, Names: []string{name}, Text: fmt.Sprintf("%s was stopped: %s.", name, why)})
	t.mu.Unlock()
	t.flush()
	return info, nil
}

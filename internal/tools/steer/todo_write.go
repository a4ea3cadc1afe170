package steer

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"gatehouse/internal/tools"
)

// TodoWriteName is the tool's name.
const TodoWriteName = "todo_write"

// MaxTodos caps the list; MaxTodoChars one item's text.
const (
	MaxTodos     = 100
	MaxTodoChars = 500
)

// Todo statuses.
const (
	TodoPending    = "pending"
	TodoInProgress = "in_progress"
	TodoDone       = "done"
)

// Todo is one item of the model's list.
type Todo struct {
	Content string `json:"content"`
	Status  string `json:"status"`
}

// Todos is a session's todo list. The window shows it from the calls in the
// transcript (each holds the whole list); the session keeps it here so the
// model reads it back after a compaction. Safe for concurrent use.
type Todos struct {
	mu    sync.Mutex
	items []Todo
}

// Set replaces the list.
func (t *Todos) Set(items []Todo) {
	t.mu.Lock()
	t.items = append([]Todo(nil), items...)
	t.mu.Unlock()
}

// List returns the list.
func (t *Todos) List() []Todo {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]Todo(nil), t.items...)
}

// Restore sets the list from a todo_write call's arguments (a resumed
// session's last one); arguments that do not parse change nothing.
func (t *Todos) Restore(args json.RawMessage) {
	if items, err := parseTodos(args); err == nil {
		t.Set(items)
	}
}

// Note is the list as the model reads it beside a checkpoint summary ("":
// no list).
func (t *Todos) Note() string {
	items := t.List()
	if len(items) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("Your todo list (todo_write), as you last wrote it:\n")
	for _, it := range items {
		mark := map[string]string{TodoPending: "[ ]", TodoInProgress: "[~]", TodoDone: "[x]"}[it.Status]
		fmt.Fprintf(&b, "- %s %s\n", mark, it.Content)
	}
	return b.String()
}

//go:embed todo_write.md
var todoWriteDescription string

// TodoWrite is the todo_write tool: the model writes its whole list each
// call. It changes nothing in the workspace, so it runs unasked in safe.
type TodoWrite struct{ List *Todos }

// Spec implements tools.Tool.
func (TodoWrite) Spec() tools.Spec {
	return tools.Spec{Name: TodoWriteName, Description: todoWriteDescription, ReadOnly: true,
		Parameters: json.RawMessage(`{"type":"object","properties":{"todos":{"type":"array","description":"the whole list, in order","items":{"type":"object","properties":{"content":{"type":"string"},"status":{"type":"string","enum":["pending","in_progress","done"]}},"required":["content","status"],"additionalProperties":false}}},"required":["todos"],"additionalProperties":false}`)}
}

// Run implements tools.Tool.
func (w TodoWrite) Run(_ context.Context, args json.RawMessage) (tools.Result, error) {
	items, err := parseTodos(args)
	if err != nil {
		return tools.Fail(tools.CodeInvalidArguments, err.Error(), ""), nil
	}
	w.List.Set(items)
	done := 0
	for _, it := range items {
		if it.Status == TodoDone {
			done++
		}
	}
	return tools.OK(map[string]any{"todos": len(items), "done": done, "message": fmt.Sprintf("Saved: %d of %d done.", done, len(items))})
}

func parseTodos(args json.RawMessage) ([]Todo, error) {
	var a struct {
		Todos []Todo `json:"todos"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return nil, fmt.Errorf("todo_write takes {\"todos\": [{\"content\", \"status\"}]}: %v", err)
	}
	if len(a.Todos) > MaxTodos {
		return nil, fmt.Errorf("the list has %d items, over %d: merge some", len(a.Todos), MaxTodos)
	}
	for i, it := range a.Todos {
		switch {
		case strings.TrimSpace(it.Content) == "":
			return nil, fmt.Errorf("item %d has no content", i+1)
		case len(it.Content) > MaxTodoChars:
			return nil, fmt.Errorf("item %d is over %d characters: shorten it", i+1, MaxTodoChars)
		case it.Status != TodoPending && it.Status != TodoInProgress && it.Status != TodoDone:
			return nil, fmt.Errorf("item %d has status %q: use pending, in_progress or done", i+1, it.Status)
		}
	}
	return a.Todos, nil
}

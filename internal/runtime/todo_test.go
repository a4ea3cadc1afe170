package runtime

import (
	"strings"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/session"
	"gatehouse/internal/tools/steer"
)

// todo_write replaces the whole list each call; the list survives a resume
// (read back from the log) and a compaction (sent with the summary).
func TestTodoWriteReplacesTheListAndSurvivesResumeAndCompaction(t *testing.T) {
	store := session.NewStore(t.TempDir())
	first := `{"todos":[{"content":"step one","status":"in_progress"},{"content":"step two","status":"pending"},{"content":"step three","status":"pending"}]}`
	second := `{"todos":[{"content":"step one","status":"done"},{"content":"step two","status":"in_progress"}]}`
	var root string
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "todo_write", first), call("c2", "todo_write", second), text("Working."),
	}}, approval.Safe, nil, func(o *Options) {
		root = o.Workspace.Root()
		log, err := store.Create(root, "s-todo")
		if err != nil {
			t.Fatal(err)
		}
		o.ID, o.Log = "s-todo", log
	})
	if r := h.run("do three steps"); r != protocol.StopCompleted {
		t.Fatalf("turn: %s", r)
	}
	want := []steer.Todo{{Content: "step one", Status: "done"}, {Content: "step two", Status: "in_progress"}}
	check := func(what string, got []steer.Todo) {
		t.Helper()
		if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
			t.Errorf("%s: list %+v, want %+v", what, got, want)
		}
	}
	check("after the turn", h.sess.todos.List())
	h.sess.Close()

	log, past, err := store.Open(root, "s-todo")
	if err != nil {
		t.Fatal(err)
	}
	h2 := start(t, llmtest.Script{
		When:      []llmtest.Rule{{LastContains: "checkpoint summary", Response: text("## Goal\nThree steps.")}},
		Responses: []llmtest.Response{text("On it."), text("Next.")},
	}, approval.Safe, nil, func(o *Options) {
		o.ID, o.Log, o.Past = "s-todo", log, past
	})
	check("after the resume", h2.sess.todos.List())
	if r := h2.run("go on"); r != protocol.StopCompleted {
		t.Fatalf("resumed turn: %s", r)
	}
	if err := h2.sess.Compact(); err != nil {
		t.Fatal(err)
	}
	if r := h2.run("and now?"); r != protocol.StopCompleted {
		t.Fatalf("turn after compaction: %s", r)
	}
	reqs := h2.srv.ModelRequests()
	body := string(reqs[len(reqs)-1].Body)
	// The list goes with the summary (the last one written, not the first).
	if !strings.Contains(body, `Three steps.\n\nYour todo list (todo_write), as you last wrote it:\n- [x] step one\n- [~] step two\n"`) {
		t.Errorf("the request after the compaction lacks the todo list: %.2000s", body)
	}
}

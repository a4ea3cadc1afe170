package gui

import (
	"os"
	"path/filepath"
	"testing"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
)

// In the window a delegate call's child shows in the snapshot under the
// call; the agents are listed with their source, a user's definition from
// the config folder among them; a foreground child cannot be stopped as a
// background one.
func TestWindowDelegatesAndListsChildren(t *testing.T) {
	call := func(id, name, args string) llmtest.Response {
		return llmtest.Response{ToolCalls: []llmtest.ToolCall{{ID: id, Name: name, Arguments: llmtest.Text(args)}}}
	}
	app, ws := newTestApp(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "delegate_lister", `{"task":"list the files"}`),
		call("k1", "list_dir", `{"path":"."}`),
		{Text: llmtest.Text("a.txt")},
		{Text: llmtest.Text("the lister says a.txt")},
	}})
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("x"), 0o644)
	dir := filepath.Join(app.store.Dir(), "agents")
	os.MkdirAll(dir, 0o755)
	def := filepath.Join(dir, "lister.md")
	os.WriteFile(def, []byte("---\nname: lister\ndescription: lists\ntools: list_dir\n---\n"), 0o644)

	if _, err := app.Submit(protocol.Submission{Text: "list"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	ct := app.Snapshot().Children["c1"]
	if ct.Agent != "lister" || len(ct.Items) == 0 || ct.Items[len(ct.Items)-1].Reason != protocol.StopCompleted {
		t.Fatalf("child in the snapshot %+v", ct)
	}
	defs, err := app.AgentDefinitions()
	if err != nil {
		t.Fatal(err)
	}
	sources := map[string]string{}
	for _, d := range defs {
		sources[d.Name] = d.Source
	}
	if sources["lister"] != def || sources["explore"] != "built-in" {
		t.Errorf("sources %v", sources)
	}
	kids, err := app.Subagents()
	if err != nil || len(kids) != 1 || kids[0].Status != "completed" || kids[0].Answer != "a.txt" {
		t.Fatalf("subagents %+v %v", kids, err)
	}
	if err := app.StopSubagent(kids[0].ID); err == nil {
		t.Error("a foreground child was stopped as a background one")
	}
}

package gui

import (
	"gatehouse/internal/protocol"

	"os"
	"path/filepath"
	"slices"
	"testing"

	"gatehouse/internal/agents"
	"gatehouse/internal/llm/llmtest"
)

// Through the window: the workspace's auditor is not offered to the model
// until the user trusts .gatehouse/agents/ from the prompt; the next
// request then offers delegate_auditor; a change asks again.
func TestWindowTrustsWorkspaceAgents(t *testing.T) {
	app, ws, srv := newTestAppServer(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: llmtest.Text("one")}, {Text: llmtest.Text("two")}}})
	dir := filepath.Join(ws, ".gatehouse", "agents")
	os.MkdirAll(dir, 0o755)
	def := filepath.Join(dir, "auditor.md")
	if err := os.WriteFile(def, []byte("---\nname: auditor\ndescription: Reviews.\ntools: read-only\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	offered := func(i int) bool {
		names, err := srv.ToolNames(i)
		if err != nil {
			t.Fatal(err)
		}
		return slices.Contains(names, "delegate_auditor")
	}

	p, err := app.AgentsPending()
	if err != nil || p == nil || len(p.Files) != 1 || p.Files[0].Definition == nil ||
		p.Files[0].Definition.Name != "auditor" || !p.Files[0].Definition.ReadOnly {
		t.Fatalf("pending %+v %v", p, err)
	}
	if _, err := app.Submit(protocol.Submission{Text: "hi"}); err != nil { // the session opens: still untrusted
		t.Fatal(err)
	}
	waitIdle(t, app)
	if offered(0) {
		t.Fatal("offered before trust")
	}
	if p2, err := app.AgentsPending(); err != nil || p2 == nil || p2.Hash != p.Hash {
		t.Fatalf("the open session's prompt: %+v %v", p2, err)
	}
	if err := app.AgentsTrustWorkspace(p.Hash); err != nil {
		t.Fatal(err)
	}
	if p, err := app.AgentsPending(); err != nil || p != nil {
		t.Fatalf("still pending after trust: %+v %v", p, err)
	}
	if _, err := app.Submit(protocol.Submission{Text: "again"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	if !offered(1) {
		t.Fatal("delegate_auditor not offered after trust")
	}

	os.WriteFile(def, []byte("---\nname: auditor\ndescription: Writes now.\ntools: write_file\n---\n"), 0o644)
	p2, err := app.AgentsPending()
	if err != nil || p2 == nil || p2.Files[0].Definition.Description != "Writes now." {
		t.Fatalf("a changed definition did not ask again: %+v %v", p2, err)
	}
	if err := app.AgentsTrustWorkspace(p.Hash); err == nil {
		t.Error("the old hash trusted changed content")
	}
	defs, _ := app.AgentDefinitions()
	if slices.ContainsFunc(defs, func(d agents.Definition) bool { return d.Name == "auditor" }) {
		t.Error("a changed definition still offered")
	}
}

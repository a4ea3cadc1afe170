package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/events"
	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime"
	"gatehouse/internal/session"
	"gatehouse/internal/tools"
	"gatehouse/internal/workspace"
)

// gateTool lets the slow server finish starting and waits until it is
// ready: between the turn's first and second model request.
type gateTool struct {
	file string
	u    *updates
	t    *testing.T
}

func (g gateTool) Spec() tools.Spec {
	return tools.Spec{Name: "open_gate", Description: "lets the server start", Parameters: json.RawMessage(`{"type":"object"}`), ReadOnly: true}
}

func (g gateTool) Run(context.Context, json.RawMessage) (tools.Result, error) {
	if err := os.WriteFile(g.file, nil, 0o644); err != nil {
		return tools.Result{}, err
	}
	g.u.wait(g.t, func(p protocol.McpUpdatedPayload) bool { s, _ := listed(p, "slow"); return s.State == StateReady })
	return tools.OK("open")
}

type gateProvider struct{ tool gateTool }

func (p gateProvider) Name() string        { return "gate" }
func (p gateProvider) Tools() []tools.Tool { return []tools.Tool{p.tool} }

func TestATurnSaysWhichServersItRunsWithoutAndTheModelHearsWhenTheyAreReady(t *testing.T) {
	cfgDir, data := t.TempDir(), t.TempDir()
	ws, err := workspace.New(t.TempDir(), workspace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	u := &updates{ch: make(chan struct{}, 100)}
	h := NewHost(HostOptions{ConfigDir: cfgDir, OnUpdate: u.on})
	t.Cleanup(h.Close)
	if err := h.Open(ws.Root()); err != nil {
		t.Fatal(err)
	}
	gate := filepath.Join(t.TempDir(), "gate")
	if err := h.PutServer("", "slow", ServerConfig{Command: fakeBin, Env: map[string]string{"FAKE_MODE": "gated", "FAKE_GATE": gate}}); err != nil {
		t.Fatal(err)
	}
	h.Start()
	if got := h.Starting(); !slices.Equal(got, []string{"slow"}) {
		t.Fatalf("starting %v", got)
	}

	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "open_gate", Arguments: llmtest.Text(`{}`)}}},
		{Text: llmtest.Text("now I can echo")},
	}})
	store := session.NewStore(data)
	log, err := store.Create(ws.Root(), "s-mcp")
	if err != nil {
		t.Fatal(err)
	}
	sess := openTold(t, h, ws, srv, log, nil)
	if err := sess.AddProvider(gateProvider{gateTool{file: gate, u: u, t: t}}); err != nil {
		t.Fatal(err)
	}

	out, err := sess.Run(context.Background(), "echo something")
	if err != nil || out.Reason != protocol.StopCompleted {
		t.Fatalf("turn: %+v %v", out, err)
	}
	first, _ := srv.ToolNames(0)
	second, _ := srv.ToolNames(1)
	if slices.Contains(first, "mcp__slow__echo") || !slices.Contains(second, "mcp__slow__echo") {
		t.Fatalf("tools of the first request %v, of the second %v", first, second)
	}
	note := `The MCP server \"slow\" is ready now` // as JSON
	req0, _ := srv.ChatRequest(0)
	req1, _ := srv.ChatRequest(1)
	if strings.Contains(string(req0), note) || strings.Count(string(req1), note) != 1 {
		t.Fatalf("the model was not told once that the server is ready (told in the first request: %v)", strings.Contains(string(req0), note))
	}

	want := protocol.TranscriptItem{Kind: protocol.ItemMcpWaiting, TurnID: out.TurnID, Servers: []string{"slow"}}
	check := func(where string, items []protocol.TranscriptItem) {
		t.Helper()
		var kinds []protocol.ItemKind
		for _, it := range items {
			kinds = append(kinds, it.Kind)
		}
		if len(items) < 2 || items[0].Kind != protocol.ItemUser || items[1].Kind != want.Kind ||
			items[1].TurnID != want.TurnID || !slices.Equal(items[1].Servers, want.Servers) ||
			slices.Index(kinds[2:], protocol.ItemMcpWaiting) >= 0 {
			t.Fatalf("%s: want one %+v after the prompt, got %+v", where, want, items)
		}
	}
	check("transcript", sess.Snapshot().Transcript)
	sess.Close()
	saved, err := store.Load(ws.Root(), "s-mcp")
	if err != nil {
		t.Fatal(err)
	}
	check("saved log", saved.Items)

	// The next turn, with the server ready, says nothing of it.
	srv2 := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: llmtest.Text("hi")}}})
	log2, past, err := store.Open(ws.Root(), "s-mcp")
	if err != nil {
		t.Fatal(err)
	}
	resumed := openTold(t, h, ws, srv2, log2, past)
	check("resumed", resumed.Snapshot().Transcript)
	if _, err := resumed.Run(context.Background(), "again"); err != nil {
		t.Fatal(err)
	}
	items := resumed.Snapshot().Transcript
	for _, it := range items[len(items)-3:] {
		if it.Kind == protocol.ItemMcpWaiting {
			t.Fatalf("a turn with every server ready says it waits: %+v", items)
		}
	}
	if req, _ := srv2.ChatRequest(0); strings.Contains(string(req), note) {
		t.Fatal("the model was told again in the next turn")
	}
}

// openTold opens session s-mcp (resuming past when set) against srv, with
// h's servers attached and telling it.
func openTold(t *testing.T, h *Host, ws *workspace.Workspace, srv *llmtest.Server, log *session.Log, past *session.Loaded) *runtime.Session {
	t.Helper()
	client, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "fake-model"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := runtime.New(runtime.Options{ID: "s-mcp", Log: log, Past: past, Workspace: ws, Model: client, NoWatch: true,
		Sink:    events.SinkFunc(func(protocol.Event) {}),
		Mode:    func() approval.Mode { return approval.Auto },
		Gateway: func(id string, pub approval.Publisher) approval.Gateway { return approval.NewGUI(id) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	if _, err := h.Attach(s, ws.Root()); err != nil {
		t.Fatal(err)
	}
	h.Tell(s, ws.Root())
	return s
}

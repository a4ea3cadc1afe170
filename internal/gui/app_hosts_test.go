package gui

import (
	"gatehouse/internal/protocol"

	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"gatehouse/internal/acp"
	"gatehouse/internal/cli"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/mcp"
	"gatehouse/internal/runtime"
	"gatehouse/internal/sessionhost"
	"gatehouse/internal/syncbuf"
)

// opened is what one host's session was assembled from.
type opened struct {
	id, workspace string
	stages        []string
	tools         []string // names offered to the model: built-ins, MCP, agents
	supervisor    string
	ledger        bool // the process groups are recorded for crash recovery
	sandbox       bool // commands get a confinement policy
	undoable      bool
	logPath       string
}

func openedFrom(s *runtime.Session) opened {
	o := opened{id: s.ID(), workspace: s.Workspace().Root(), stages: s.Stages(), undoable: s.Undoable(), logPath: s.LogPath()}
	for _, sp := range s.Specs() {
		o.tools = append(o.tools, sp.Name)
	}
	slices.Sort(o.tools)
	po := s.ProcessOptions()
	o.supervisor, o.ledger, o.sandbox = po.Supervisor, po.Ledger != nil, po.Sandbox != nil
	return o
}

// hostsScript adds hello.txt through apply_patch (auto mode: nothing asks).
func hostsScript() llmtest.Script {
	patch := `{"patch":"*** Begin Patch\n*** Add File: hello.txt\n+hi\n*** End Patch"}`
	return llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "apply_patch", Arguments: llmtest.Text(patch)}}},
		{Text: llmtest.Text("Done.")},
	}}
}

// The window, `gatehouse exec` and `gatehouse acp` open their sessions
// through one recipe: the same middleware, tools (the user's MCP server's
// and agent definition's included), supervisor, ledger and sandbox, a
// saved log and checkpoints, so `gatehouse undo --session` takes back a
// turn of any of them, ACP's included.
func TestEveryHostOpensTheSameSession(t *testing.T) {
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "OPENAI_") || k == "GATEHOUSE_APPROVAL" || k == "GATEHOUSE_API" {
			t.Setenv(k, "")
		}
	}
	bin := fakeMCPServer(t)
	cfg, data := filepath.Join(t.TempDir(), "config"), filepath.Join(t.TempDir(), "data")
	if err := mcp.Save(mcp.UserConfigPath(cfg), mcp.Config{Servers: map[string]mcp.ServerConfig{"fake": {Command: bin}}}); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(cfg, "agents"), 0o755)
	def := "---\nname: auditor\ndescription: reviews a change\ntools: read_file\n---\nReview it.\n"
	if err := os.WriteFile(filepath.Join(cfg, "agents", "auditor.md"), []byte(def), 0o644); err != nil {
		t.Fatal(err)
	}
	env := sessionhost.Env{ConfigDir: cfg, DataDir: data, LookupEnv: func(string) (string, bool) { return "", false }, Version: "test"}

	hosts := map[string]opened{
		"window": windowOpens(t, cfg, data),
		"exec":   execOpens(t, env),
		"acp":    acpOpens(t, env),
	}
	win := hosts["window"]
	if !slices.Contains(win.tools, "mcp__fake__echo") || !slices.Contains(win.tools, "delegate_auditor") {
		t.Errorf("the window's tools lack the user's MCP server or agent: %v", win.tools)
	}
	for name, h := range hosts {
		if !slices.Equal(h.stages, win.stages) {
			t.Errorf("%s middleware %v, window %v", name, h.stages, win.stages)
		}
		if !slices.Equal(h.tools, win.tools) {
			t.Errorf("%s tools %v\nwindow %v", name, h.tools, win.tools)
		}
		if h.supervisor != win.supervisor || !h.ledger || !h.sandbox {
			t.Errorf("%s processes: supervisor %q ledger %v sandbox %v (window: %q)", name, h.supervisor, h.ledger, h.sandbox, win.supervisor)
		}
		if !h.undoable {
			t.Errorf("%s: no checkpoints", name)
		}
		if rel, err := filepath.Rel(data, h.logPath); h.logPath == "" || err != nil || strings.HasPrefix(rel, "..") {
			t.Errorf("%s: log %q is not in the data folder", name, h.logPath)
		} else if b, err := os.ReadFile(h.logPath); err != nil || !bytes.Contains(b, []byte(`"c1"`)) {
			t.Errorf("%s: the log lacks the call: %v\n%s", name, err, b)
		}
		// Undo from the command line, by session id.
		var out, errb bytes.Buffer
		if code := cli.Undo([]string{"--workspace", h.workspace, "--session", h.id}, data, &out, &errb); code != 0 {
			t.Errorf("%s: gatehouse undo exit %d: %s%s", name, code, out.String(), errb.String())
		}
		if _, err := os.Stat(filepath.Join(h.workspace, "hello.txt")); !os.IsNotExist(err) {
			t.Errorf("%s: undo left hello.txt (%v)", name, err)
		}
	}
}

func windowOpens(t *testing.T, cfg, data string) opened {
	app, _ := newAppIn(t, llmtest.Start(t, hostsScript()), cfg, data)
	app.Ready() // the window's servers start after its first frame
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if l := app.McpList().Servers; len(l) == 1 && l[0].State == mcp.StateReady {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the window's MCP server did not start: %+v", app.McpList())
		}
	}
	if _, err := app.Submit(protocol.Submission{Text: "go"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	return openedFrom(app.currentSession())
}

func execOpens(t *testing.T, env sessionhost.Env) opened {
	srv := llmtest.Start(t, hostsScript())
	var o opened
	env.OnSession = func(s *runtime.Session) { o = openedFrom(s) }
	var stdout, stderr bytes.Buffer
	code := cli.Exec(context.Background(), []string{"--workspace", t.TempDir(), "--prompt", "go", "--approval", "auto",
		"--base-url", srv.URL, "--model", "fake-model", "--json"}, env, strings.NewReader(""), &stdout, &stderr)
	if code != cli.ExitCompleted {
		t.Fatalf("exec exit %d: %s", code, stderr.String())
	}
	return o
}

// acpOpens runs `gatehouse acp` in-process and speaks JSON-RPC to it by
// hand: initialize, session/new, one prompt, then the editor goes away.
func acpOpens(t *testing.T, env sessionhost.Env) opened {
	srv := llmtest.Start(t, hostsScript())
	var mu sync.Mutex
	var o opened
	env.OnSession = func(s *runtime.Session) { mu.Lock(); o = openedFrom(s); mu.Unlock() }
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr syncbuf.Buffer
	done := make(chan int, 1)
	go func() {
		done <- acp.Run(context.Background(), []string{"--base-url", srv.URL, "--model", "fake-model", "--approval", "auto"},
			env, inR, outW, &stderr)
		outW.Close()
	}()
	lines := bufio.NewScanner(outR)
	lines.Buffer(nil, 1<<24)
	call := func(id int, method string, params any) json.RawMessage {
		t.Helper()
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		if _, err := inW.Write(append(b, '\n')); err != nil {
			t.Fatalf("%s: %v (%s)", method, err, stderr.String())
		}
		for lines.Scan() {
			var m struct {
				ID     *int            `json:"id"`
				Method string          `json:"method"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
				t.Fatalf("not JSON-RPC: %s", lines.Text())
			}
			if m.ID == nil || *m.ID != id || m.Method != "" {
				continue // a session/update
			}
			if m.Error != nil {
				t.Fatalf("%s: %s", method, m.Error)
			}
			return m.Result
		}
		t.Fatalf("%s: no answer (%s)", method, stderr.String())
		return nil
	}
	call(1, "initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{}})
	var s struct {
		SessionID string `json:"sessionId"`
	}
	json.Unmarshal(call(2, "session/new", map[string]any{"cwd": t.TempDir(), "mcpServers": []any{}}), &s)
	var r struct {
		StopReason string `json:"stopReason"`
	}
	json.Unmarshal(call(3, "session/prompt", map[string]any{"sessionId": s.SessionID,
		"prompt": []any{map[string]any{"type": "text", "text": "go"}}}), &r)
	if r.StopReason != "end_turn" {
		t.Errorf("acp stop %q", r.StopReason)
	}
	inW.Close()
	go io.Copy(io.Discard, outR)
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("acp exit %d: %s", code, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("acp did not stop")
	}
	mu.Lock()
	defer mu.Unlock()
	if o.id != s.SessionID {
		t.Fatalf("acp opened %q, answered %q", o.id, s.SessionID)
	}
	return o
}

package gui

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gatehouse/internal/cli"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime"
	"gatehouse/internal/sessionhost"
	"gatehouse/internal/tools"
)

// hostScript reads AGENTS.md (a reading call: safe runs it unasked), calls
// glob (outside the test's policy), then writes (safe asks; the answer is
// no, so the turn ends blocked).
func hostScript() llmtest.Script {
	return llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "read_file", Arguments: llmtest.Text(`{"path":"AGENTS.md"}`)}}},
		{ToolCalls: []llmtest.ToolCall{{ID: "c2", Name: "glob", Arguments: llmtest.Text(`{"pattern":"*"}`)}}},
		{ToolCalls: []llmtest.ToolCall{{ID: "c3", Name: "write_file", Arguments: llmtest.Text(`{"path":"a.txt","content":"x"}`)}}},
	}}
}

// hostRun is what one entry point did with hostScript.
type hostRun struct {
	stages   []string
	tools    string // the first request's tools, as sent
	system   string
	results  map[string]string
	approval protocol.ApprovalRequestedPayload
	stop     protocol.StopReason
}

func firstRequest(t *testing.T, srv *llmtest.Server) (tools, system string) {
	t.Helper()
	var body struct {
		Tools    json.RawMessage `json:"tools"`
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(srv.ModelRequests()[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	return string(body.Tools), body.Messages[0].Content
}

var hostPolicy = func() tools.Policy {
	return tools.AllowOnly("read_file", "write_file", "bash", "grep", "list_dir", "apply_patch")
}

// The window and `gatehouse exec` run the same session for the same mode:
// the same tools offered, middleware order, AGENTS.md in the prompt, the
// policy's refusal, and the same approval asked for the same call.
func TestTheWindowAndExecRunTheSameSession(t *testing.T) {
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "AGENTS.md"), []byte("Answer in haiku."), 0o644); err != nil {
		t.Fatal(err)
	}
	win, ex := windowRun(t, ws), execRun(t, ws)
	for _, r := range []hostRun{win, ex} {
		if !strings.Contains(r.system, "Answer in haiku.") {
			t.Errorf("AGENTS.md is not in the system prompt: %.200q", r.system)
		}
		if !strings.Contains(r.results["c1"], "Answer in haiku.") {
			t.Errorf("read_file: %s", r.results["c1"])
		}
		if !strings.Contains(r.results["c2"], "not allowed in this session") {
			t.Errorf("glob outside the policy: %s", r.results["c2"])
		}
		if strings.Contains(r.tools, `"glob"`) {
			t.Error("glob was offered")
		}
		if r.stop != protocol.StopBlockedByApproval {
			t.Errorf("stop %s", r.stop)
		}
	}
	if !slices.Equal(win.stages, []string{runtime.StageOutputCap, runtime.StageBudget, runtime.StageHooks, runtime.StagePlan, runtime.StageApproval, runtime.StageInstructions, runtime.StageRecorder, runtime.StageLanguages, runtime.StageCheckpoint}) ||
		!slices.Equal(win.stages, ex.stages) {
		t.Errorf("middleware: window %v, exec %v", win.stages, ex.stages)
	}
	if win.tools != ex.tools {
		t.Errorf("tools differ:\nwindow %s\nexec   %s", win.tools, ex.tools)
	}
	if win.system != ex.system {
		t.Error("the system prompts differ")
	}
	for _, id := range []string{"c1", "c2"} {
		if win.results[id] != ex.results[id] {
			t.Errorf("%s: window %s, exec %s", id, win.results[id], ex.results[id])
		}
	}
	w, e := win.approval, ex.approval
	if w.Tool != "write_file" || w.CallID != "c3" || w.Tool != e.Tool || w.CallID != e.CallID ||
		w.Preview.Summary != e.Preview.Summary || w.Preview.Kind != e.Preview.Kind {
		t.Errorf("approvals differ:\nwindow %+v\nexec   %+v", w, e)
	}
}

func windowRun(t *testing.T, ws string) hostRun {
	app, _, srv := newTestAppServer(t, hostScript())
	app.policy = hostPolicy()
	if err := app.setWorkspace(ws); err != nil {
		t.Fatal(err)
	}
	if _, err := app.SetApprovalMode("safe"); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Submit(protocol.Submission{Text: "go"}); err != nil {
		t.Fatal(err)
	}
	req := waitApproval(t, app)
	if err := app.ResolveApproval(req.ApprovalID, protocol.Decision{Kind: protocol.DecisionReject}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	r := hostRun{stages: app.currentSession().Stages(), results: map[string]string{}, approval: req, stop: lastStop(t, app)}
	r.tools, r.system = firstRequest(t, srv)
	for _, it := range app.Snapshot().Transcript {
		if it.Kind == protocol.ItemTool {
			r.results[it.ID] = string(it.Result)
		}
	}
	return r
}

func execRun(t *testing.T, ws string) hostRun {
	srv := llmtest.Start(t, hostScript())
	var r hostRun
	env := sessionhost.Env{
		ConfigDir: filepath.Join(t.TempDir(), "config"), DataDir: filepath.Join(t.TempDir(), "data"),
		LookupEnv: func(string) (string, bool) { return "", false },
		Policy:    hostPolicy(), OnSession: func(s *runtime.Session) { r.stages = s.Stages() },
	}
	var stdout, stderr bytes.Buffer
	code := cli.Exec(context.Background(), []string{"--workspace", ws, "--prompt", "go", "--approval", "safe",
		"--base-url", srv.URL, "--model", "fake-model", "--json"}, env, strings.NewReader(""), &stdout, &stderr)
	if code != cli.ExitBlockedByApproval {
		t.Fatalf("exec exit %d: %s", code, stderr.String())
	}
	r.results = map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var e struct {
			Type    protocol.EventType `json:"type"`
			Payload json.RawMessage    `json:"payload"`
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatal(err)
		}
		switch e.Type {
		case protocol.ToolFinished:
			var p protocol.ToolFinishedPayload
			json.Unmarshal(e.Payload, &p)
			r.results[p.CallID] = string(p.Result)
		case protocol.ApprovalRequested:
			json.Unmarshal(e.Payload, &r.approval)
		case protocol.TurnStopped:
			var p protocol.TurnStoppedPayload
			json.Unmarshal(e.Payload, &p)
			r.stop = p.Reason
		}
	}
	r.tools, r.system = firstRequest(t, srv)
	return r
}

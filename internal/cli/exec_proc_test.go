//go:build linux

package cli

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/session"
)

// Processes the agent started end with the command; they are saved with the
// session, and turn.stopped stays the last line.
func TestExecStopsItsProcesses(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "bash", Arguments: llmtest.Text(`{"action":"start","command":"echo up; sleep 300"}`)}}},
		{Text: llmtest.Text("Started.")},
	}})
	env := testEnv(t, nil)
	ws := t.TempDir()
	r := runExec(t, context.Background(), env, "--workspace", ws, "--prompt", "start it", "--approval", "auto",
		"--base-url", srv.URL, "--model", "fake-model", "--json")
	if r.code != ExitCompleted {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	evs := parseEvents(t, r.stdout)
	if last := evs[len(evs)-1]; last.Type != protocol.TurnStopped {
		t.Fatalf("last line is %s", last.Type)
	}
	root, _ := filepath.EvalSymlinks(ws)
	st := session.NewStore(env.DataDir)
	list, err := st.List(root)
	if err != nil || len(list) != 1 {
		t.Fatalf("sessions %+v %v", list, err)
	}
	got, err := st.Load(root, list[0].ID)
	if err != nil || len(got.Processes) != 1 {
		t.Fatalf("saved processes %+v %v", got, err)
	}
	p := got.Processes[0].Info
	if p.Status == "running" || p.PID <= 0 {
		t.Errorf("saved process %+v", p)
	}
	deadline := time.Now().Add(30 * time.Second)
	for syscall.Kill(p.PID, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("process %d outlived exec", p.PID)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

//go:build unix

package gui

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
)

func TestToolCallsReachTheWorkspaceAndProcessesDieWithTheSession(t *testing.T) {
	app, ws := newTestApp(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{
			{ID: "c1", Name: "write_file", Arguments: llmtest.Text(`{"path":"notes/a.txt","content":"hi\n"}`)},
			{ID: "c2", Name: "bash", Arguments: llmtest.Text(`{"action":"start","command":"sleep 300"}`)},
		}},
		{Text: llmtest.Text("done")},
	}})
	if _, err := app.Submit(protocol.Submission{Text: "go"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	if b, err := os.ReadFile(filepath.Join(ws, "notes", "a.txt")); err != nil || string(b) != "hi\n" {
		t.Fatalf("file: %q %v", b, err)
	}
	procs := app.Processes()
	if len(procs) != 1 || procs[0].Status != protocol.StatusRunning {
		t.Fatalf("processes %+v", procs)
	}
	pid := procs[0].PID
	app.shutdown(context.Background())
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(pid, 0) == nil && !zombie(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("process %d survived the session", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func zombie(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", itoa(pid), "stat"))
	if err != nil {
		return true
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && i+2 < len(s) && s[i+2] == 'Z'
}

func itoa(n int) string { return strconv.Itoa(n) }

// Package runtimetest holds what tests that build a session by hand (the
// runtime's own, the agents') make it of: a workspace holding a tree of
// files, a client of the fake model server, and the wait for the window's
// dialog to ask. It imports no runtime, so the runtime's own tests use it.
package runtimetest

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"gatehouse/internal/approval"
	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/workspace"
)

// Workspace opens a workspace at root ("": a new temporary folder) after
// writing tree's files into it (slash-separated paths → content).
func Workspace(t testing.TB, root string, tree map[string]string) *workspace.Workspace {
	t.Helper()
	if root == "" {
		root = t.TempDir()
	}
	for p, c := range tree {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := workspace.New(root, workspace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// Client speaks to the fake model server srv as model "fake-model".
func Client(t testing.TB, srv *llmtest.Server) *llm.Client {
	t.Helper()
	c, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "fake-model"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// WaitApproval waits (30 s at most) for the dialog gateway gui returns to
// hold a request, and returns the first.
func WaitApproval(t testing.TB, gui func() *approval.GUI) approval.Request {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if p := gui().Pending(); len(p) > 0 {
			return p[0]
		}
		if time.Now().After(deadline) {
			t.Fatal("no approval was asked for")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// RequestTools names the tools model request i of srv offered, sorted.
func RequestTools(t testing.TB, srv *llmtest.Server, i int) []string {
	t.Helper()
	names, err := srv.ToolNames(i)
	if err != nil {
		t.Fatal(err)
	}
	return names
}

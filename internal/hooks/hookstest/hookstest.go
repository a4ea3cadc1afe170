// Package hookstest builds the fixtures of tests about a workspace agent
// definition's hooks, shared by the hosts' tests (agents, exec, the
// window).
package hookstest

import (
	"os"
	"path/filepath"
	"testing"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/trust"
)

// GuardDefinition is a workspace definition of agent guard whose
// PreToolUse hook for Bash runs .hooks/mark.sh.
const GuardDefinition = `---
name: guard
description: lists files
hooks:
  PreToolUse:
    - matcher: Bash
      hooks:
        - type: command
          command: $CLAUDE_PROJECT_DIR/.hooks/mark.sh
---
List.
`

// AgentGuard writes GuardDefinition into ws, and its script: it appends
// "ran" to ws/marker, then runs more (shell lines). It returns the
// marker's path and the script's.
func AgentGuard(t testing.TB, ws, more string) (marker, script string) {
	t.Helper()
	script = filepath.Join(ws, ".hooks", "mark.sh")
	for _, d := range []string{filepath.Dir(script), filepath.Join(ws, filepath.FromSlash(trust.AgentsDir))} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(ws, filepath.FromSlash(trust.AgentsDir), "guard.md"), []byte(GuardDefinition), 0o644); err != nil {
		t.Fatal(err)
	}
	Script(t, script, "echo ran >> \"$CLAUDE_PROJECT_DIR/marker\"\n"+more)
	return filepath.Join(ws, "marker"), script
}

// Script writes an executable shell script at p with body.
func Script(t testing.TB, p, body string) {
	t.Helper()
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
}

// DelegateTurns is a fake model's script of n turns, each delegating to
// agent, whose child runs `ls` with bash and answers, then answering;
// call ids differ from turn to turn.
func DelegateTurns(agent string, n int) []llmtest.Response {
	var out []llmtest.Response
	for i := range n {
		id := string(rune('1' + i))
		out = append(out,
			llmtest.Response{ToolCalls: []llmtest.ToolCall{{ID: "c" + id, Name: "delegate_" + agent, Arguments: llmtest.Text(`{"task":"list"}`)}}},
			llmtest.Response{ToolCalls: []llmtest.ToolCall{{ID: "k" + id, Name: "bash", Arguments: llmtest.Text(`{"action":"exec","command":"ls"}`)}}},
			llmtest.Response{Text: llmtest.Text("listed")}, llmtest.Response{Text: llmtest.Text("done")})
	}
	return out
}

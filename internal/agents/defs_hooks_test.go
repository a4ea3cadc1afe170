package agents

import (
	"strings"
	"testing"
	"time"

	"gatehouse/internal/hooks"
)

// guardDef is a definition with hooks written as Claude Code's subagent
// front matter writes them: nested YAML, a Stop hook among them.
const guardDef = `---
name: guard
description: Runs commands: but never rm
tools: [bash, read_file]
hooks:
  PreToolUse:
    - matcher: "Bash"
      hooks:
        - type: command
          command: "$CLAUDE_PROJECT_DIR/.hooks/no-rm.sh"
          timeout: 5
  Stop:
    - hooks:
        - type: command
          command: echo stopped >> "$CLAUDE_PROJECT_DIR/stop.log"
---
Run what you are asked to.
`

// A definition's hooks are read from nested YAML into hooks of that agent:
// a Stop hook runs as SubagentStop, the timeout is kept; the rest of the
// front matter reads as before (an unquoted ": " in a value included).
func TestParseDefinitionHooks(t *testing.T) {
	d, err := Parse("guard.md", []byte(guardDef))
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "guard" || d.Description != "Runs commands: but never rm" || len(d.Tools) != 2 || d.Prompt != "Run what you are asked to." {
		t.Fatalf("%+v", d)
	}
	if len(d.Hooks) != 2 {
		t.Fatalf("hooks %+v", d.Hooks)
	}
	pre, stop := d.Hooks[0], d.Hooks[1]
	if pre.Event != hooks.PreToolUse || pre.Matcher != "Bash" || pre.Timeout != 5*time.Second || pre.Scope != hooks.ScopeAgent ||
		pre.Agent != "guard" || pre.Source != "guard.md" || pre.Confined || !pre.Matches("Bash") || pre.Matches("read_file") {
		t.Errorf("PreToolUse hook %+v", pre)
	}
	if stop.Event != hooks.SubagentStop || !strings.HasPrefix(stop.Command, "echo stopped") || stop.Timeout != hooks.DefaultTimeout {
		t.Errorf("Stop hook %+v", stop)
	}
	if e := hooks.Entries(d.Hooks); e[0].Source != hooks.ScopeAgent || e[0].Agent != "guard" || e[0].ID == hooks.Entries([]hooks.Hook{{Event: pre.Event, Matcher: pre.Matcher, Command: pre.Command}})[0].ID {
		t.Errorf("entries %+v: an agent's hook must not share the ID of the same user hook", e)
	}
	d, err = Parse("plain.md", []byte("---\nname: plain\ndescription: d\nhooks:\n---\n"))
	if err != nil || d.Hooks != nil {
		t.Errorf("an empty hooks key: %+v %v", d, err)
	}
}

// A bad hook, or bad front matter, refuses the whole definition with an
// error naming the file, the line and the key.
func TestParseDefinitionRefusesBadHooks(t *testing.T) {
	head := "---\nname: x\ndescription: d\n"
	for content, want := range map[string]string{
		head + "hooks:\n  PreToolUse:\n    - hooks:\n        - type: http\n          command: x\n---\n":         `bad.md:4: hooks: PreToolUse[0].hooks[0]: type "http"`,
		head + "hooks:\n  PreToolUse:\n    - hooks:\n        - type: command\n---\n":                            `bad.md:4: hooks: PreToolUse[0].hooks[0]: no command`,
		head + "hooks:\n  PreToolUse:\n    - matcher: \"(\"\n      hooks: [{type: command, command: x}]\n---\n": `bad.md:4: hooks: PreToolUse[0].matcher "("`,
		head + "hooks:\n  SessionStart:\n    - hooks: [{type: command, command: x}]\n---\n":                     `bad.md:4: hooks: SessionStart does not run for an agent's child`,
		head + "hooks:\n  BeforeTool:\n    - hooks: [{type: command, command: x}]\n---\n":                       `bad.md:4: hooks: unknown event "BeforeTool"`,
		head + "hooks:\n  PreToolUse:\n    - hooks: [{type: command, command: x, timeout: -1}]\n---\n":          `bad.md:4: hooks: PreToolUse[0].hooks[0]: a negative timeout`,
		head + "hooks: run everything\n---\n":                                                                   `bad.md:4: hooks: not in the shape of a hooks file's hooks`,
		head + "name: y\n---\n":                                                                                 `bad.md:4: name is given twice (first on line 2)`,
		head + "tools: {a: b}\n---\n":                                                                           `bad.md:4: tools must be a list`,
		head + "model: [a]\n---\n":                                                                              `bad.md:4: model must be text`,
		head + "hooks: [\n---\n":                                                                                `bad.md:4: the front matter is not valid YAML`,
	} {
		_, err := Parse("bad.md", []byte(content))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q:\n got %v\nwant %q", content, err, want)
		}
	}
}

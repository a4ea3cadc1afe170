package hooks

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// script writes an executable hook script into dir and returns its path.
func script(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// runner builds a Runner over a hooks file (JSON with %[1]s for the
// scripts folder).
func runner(t *testing.T, conf string, scripts map[string]string) (*Runner, string) {
	t.Helper()
	dir := t.TempDir()
	sdir := filepath.Join(dir, "hooks")
	os.Mkdir(sdir, 0o755)
	for n, b := range scripts {
		script(t, sdir, n, b)
	}
	hs, err := Parse([]byte(strings.ReplaceAll(conf, "DIR", sdir)), "hooks.json")
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(dir, "ws")
	os.Mkdir(ws, 0o755)
	return &Runner{Hooks: hs, ProjectDir: ws, SessionID: "s1", Mode: func() string { return "auto" },
		Environ: func() []string {
			return []string{"PATH=" + os.Getenv("PATH"), "OPENAI_API_KEY=sk-secret", "GATEHOUSE_API_KEY=sk-2", "ANTHROPIC_API_KEY=a", "HOME=" + dir}
		}}, ws
}

func pre(conf string) string {
	return `{"hooks": {"PreToolUse": [` + conf + `]}}`
}

func bashCall(cmd string) *Call {
	b, _ := json.Marshal(map[string]string{"action": "exec", "command": cmd})
	return &Call{ID: "call-1", Tool: "bash", Args: b}
}

func hasPython(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
}

// A Claude Code hook for Bash, in Python, reads tool_input.command and
// denies rm -rf with a reason the model reads; other commands pass.
func TestBashMatcherDeniesRmRfWithReason(t *testing.T) {
	hasPython(t)
	r, _ := runner(t, pre(`{"matcher": "Bash", "hooks": [{"type": "command", "command": "python3 DIR/guard.py"}]}`), map[string]string{
		"guard.py": `import json, sys
d = json.load(sys.stdin)
assert d["hook_event_name"] == "PreToolUse" and d["tool_name"] == "Bash", d
if "rm -rf" in d["tool_input"]["command"]:
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": "no rm -rf here"}}))
`})
	o := r.Run(context.Background(), PreToolUse, Input{}, bashCall("rm -rf build"))
	if o.Permission != "deny" || !strings.Contains(o.Reason, "no rm -rf here") || len(o.Ran) != 1 || o.Ran[0].ToolName != "Bash" {
		t.Fatalf("outcome %+v", o)
	}
	if o := r.Run(context.Background(), PreToolUse, Input{}, bashCall("ls")); o.Permission != "" || o.Ran[0].Verdict != "no objection" {
		t.Fatalf("ls: %+v", o)
	}
}

// Exit 2 means, per event: deny a tool call (stderr is the reason), erase
// a prompt (stderr for the user), make Stop go on, send stderr to the model
// after PostToolUse; and nothing on Notification.
func TestExitTwoPerEvent(t *testing.T) {
	conf := `{"hooks": {%s}}`
	var evs []string
	for _, ev := range []Event{PreToolUse, UserPromptSubmit, Stop, PostToolUse, Notification} {
		evs = append(evs, fmt.Sprintf(`"%s": [{"hooks": [{"type": "command", "command": "echo \"no: $(cat | head -c 40 >/dev/null; echo %s)\" >&2; exit 2"}]}]`, ev, ev))
	}
	r, _ := runner(t, fmt.Sprintf(conf, strings.Join(evs, ",")), nil)
	ctx := context.Background()
	if o := r.Run(ctx, PreToolUse, Input{}, bashCall("ls")); o.Permission != "deny" || !strings.Contains(o.Reason, "no: PreToolUse") {
		t.Errorf("PreToolUse %+v", o)
	}
	if o := r.Run(ctx, UserPromptSubmit, Input{Prompt: "hi"}, nil); !o.Blocked || !strings.Contains(o.Reason, "no: UserPromptSubmit") {
		t.Errorf("UserPromptSubmit %+v", o)
	}
	if o := r.Run(ctx, Stop, Input{}, nil); !o.Blocked || o.Ran[0].Verdict != "continue" {
		t.Errorf("Stop %+v", o)
	}
	if o := r.Run(ctx, PostToolUse, Input{ToolResponse: "x"}, bashCall("ls")); !o.Blocked || !strings.Contains(o.Reason, "no: PostToolUse") {
		t.Errorf("PostToolUse %+v", o)
	}
	if o := r.Run(ctx, Notification, Input{Message: "m"}, nil); o.Blocked || o.Permission != "" || o.Reason != "" {
		t.Errorf("Notification %+v", o)
	}
}

// A hook that crashes, times out or exits 1 blocks the call, naming the
// hook; onError "continue" lets the call go on, reported; on PostToolUse a
// failure is reported and nothing else.
func TestFailuresBlockPreToolUse(t *testing.T) {
	for _, c := range []struct{ name, cmd, extra, want string }{
		{"exit 1", "exit 1", "", "exited with 1"},
		{"crash", "kill -9 $$", "", "killed"},
		{"timeout", "sleep 5", `, "timeout": 0.3`, "timed out"},
		{"missing", "DIR/not-there.sh", "", "exited with 127"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, _ := runner(t, pre(`{"hooks": [{"type": "command", "command": "`+c.cmd+`"`+c.extra+`}]}`), nil)
			start := time.Now()
			o := r.Run(context.Background(), PreToolUse, Input{}, bashCall("ls"))
			if o.Permission != "deny" || !strings.Contains(o.Reason, c.want) || !strings.Contains(o.Reason, `hook "`) {
				t.Fatalf("outcome %+v", o)
			}
			if time.Since(start) > 3*time.Second {
				t.Errorf("took %s", time.Since(start))
			}
			r.Hooks[0].ContinueOnError = true
			if o := r.Run(context.Background(), PreToolUse, Input{}, bashCall("ls")); o.Permission != "" || !strings.Contains(o.Ran[0].Verdict, "ignored") {
				t.Errorf("onError continue: %+v", o)
			}
			r.Hooks[0].ContinueOnError = false
			r.Hooks[0].Event = PostToolUse
			if o := r.Run(context.Background(), PostToolUse, Input{}, bashCall("ls")); o.Blocked || !strings.Contains(o.Ran[0].Verdict, c.want) {
				t.Errorf("PostToolUse: %+v", o)
			}
		})
	}
}

// Hooks matching one call run in parallel and the strictest answer wins:
// deny over ask over allow over defer; each hook's verdict is kept.
func TestParallelStrictestWins(t *testing.T) {
	ans := func(d string) string {
		return `{"hooks": [{"type": "command", "command": "sleep 0.4; echo '{\"hookSpecificOutput\": {\"permissionDecision\": \"` + d + `\", \"permissionDecisionReason\": \"said ` + d + `\"}}'"}]}`
	}
	for _, c := range []struct {
		ds   []string
		want string
	}{{[]string{"allow", "ask", "defer"}, "ask"}, {[]string{"allow", "deny", "ask"}, "deny"}, {[]string{"allow", "defer"}, "allow"}, {[]string{"defer", "defer"}, ""}} {
		var gs []string
		for _, d := range c.ds {
			gs = append(gs, ans(d))
		}
		r, _ := runner(t, pre(strings.Join(gs, ",")), nil)
		start := time.Now()
		o := r.Run(context.Background(), PreToolUse, Input{}, bashCall("ls"))
		if o.Permission != c.want || len(o.Ran) != len(c.ds) {
			t.Errorf("%v: %+v", c.ds, o)
		}
		if el := time.Since(start); el > time.Duration(len(c.ds))*400*time.Millisecond {
			t.Errorf("%v took %s: not in parallel", c.ds, el)
		}
		for i, ran := range o.Ran {
			if want := map[string]string{"defer": "no objection"}[c.ds[i]]; want != "" && ran.Verdict != want || want == "" && ran.Verdict != c.ds[i] {
				t.Errorf("%v: hook %d verdict %q", c.ds, i, ran.Verdict)
			}
		}
	}
}

// updatedInput is mapped back to the call's own arguments (a Bash hook's
// command becomes bash's command); two hooks rewriting one call
// differently deny it, naming both; the same rewrite twice stands.
func TestUpdatedInput(t *testing.T) {
	rw := func(cmd string) string {
		return `{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo '{\"hookSpecificOutput\": {\"permissionDecision\": \"allow\", \"updatedInput\": {\"command\": \"` + cmd + `\"}}}'"}]}`
	}
	r, _ := runner(t, pre(rw("ls -la")), nil)
	o := r.Run(context.Background(), PreToolUse, Input{}, bashCall("ls"))
	if o.Permission != "allow" || o.UpdatedInput["command"] != "ls -la" || o.UpdatedInput["action"] != "exec" || o.RewrittenBy == "" {
		t.Fatalf("outcome %+v", o)
	}
	r, _ = runner(t, pre(rw("ls -la")+","+rw("ls -la")), nil)
	if o := r.Run(context.Background(), PreToolUse, Input{}, bashCall("ls")); o.Permission != "allow" || o.UpdatedInput["command"] != "ls -la" {
		t.Fatalf("same rewrite: %+v", o)
	}
	r, _ = runner(t, pre(rw("ls -la")+","+rw("rm x")), nil)
	o = r.Run(context.Background(), PreToolUse, Input{}, bashCall("ls"))
	if o.Permission != "deny" || o.UpdatedInput != nil || !strings.Contains(o.Reason, "rewrote the call differently") ||
		!strings.Contains(o.Reason, "ls -la") || !strings.Contains(o.Reason, "rm x") {
		t.Fatalf("conflict: %+v", o)
	}
}

// A Write|Edit matcher reading tool_input.file_path sees an absolute path
// for write_file, and one run per file for apply_patch.
func TestWriteEditAliasesSeeAbsolutePaths(t *testing.T) {
	r, ws := runner(t, pre(`{"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "sh DIR/log.sh"}]}`), map[string]string{
		"log.sh": "python3 -c 'import json,sys; d=json.load(sys.stdin); print(d[\"tool_name\"], d[\"tool_input\"][\"file_path\"], file=sys.stderr)'; exit 2\n"})
	hasPython(t)
	wb, _ := json.Marshal(map[string]string{"path": "src/a.go", "content": "package a"})
	o := r.Run(context.Background(), PreToolUse, Input{}, &Call{ID: "c", Tool: "write_file", Args: wb})
	if o.Permission != "deny" || strings.TrimSpace(o.Ran[0].Stderr) != "Write "+filepath.Join(ws, "src/a.go") {
		t.Fatalf("write_file: %+v", o)
	}
	p := "*** Begin Patch\n*** Update File: a.go\n@@\n-x\n+y\n*** Add File: b/c.go\n+package c\n*** End Patch\n"
	pb, _ := json.Marshal(map[string]string{"patch": p})
	o = r.Run(context.Background(), PreToolUse, Input{}, &Call{ID: "c", Tool: "apply_patch", Args: pb})
	var seen []string
	for _, ran := range o.Ran {
		seen = append(seen, strings.TrimSpace(ran.Stderr))
	}
	want := []string{"Edit " + filepath.Join(ws, "a.go"), "Edit " + filepath.Join(ws, "b/c.go")}
	if strings.Join(seen, "|") != strings.Join(want, "|") {
		t.Fatalf("apply_patch seen %q, want %q", seen, want)
	}
}

// A hook's environment has the project folders and none of the secrets;
// it runs in the project folder and reads the input as Claude Code sends it.
func TestEnvironmentAndInput(t *testing.T) {
	r, ws := runner(t, `{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "sh DIR/env.sh"}]}]}}`, map[string]string{
		"env.sh": "env | grep -E 'API_KEY|^GATEHOUSE_|^CLAUDE_' | sort; pwd; cat\n"})
	o := r.Run(context.Background(), UserPromptSubmit, Input{Prompt: "hello"}, nil)
	out := o.Ran[0].Stdout
	if strings.Contains(out, "sk-") || strings.Contains(out, "API_KEY") {
		t.Errorf("a secret reached the hook: %s", out)
	}
	for _, want := range []string{"CLAUDE_PROJECT_DIR=" + ws, "GATEHOUSE_PROJECT_DIR=" + ws, "\n" + ws + "\n",
		`"session_id":"s1"`, `"hook_event_name":"UserPromptSubmit"`, `"permission_mode":"bypassPermissions"`, `"prompt":"hello"`, `"cwd":"` + ws + `"`} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in %s", want, out)
		}
	}
	if o.Blocked || !strings.Contains(o.Context, "hello") {
		t.Errorf("plain output is context: %+v", o)
	}
}

// PostToolUse receives tool_response; decision block marks the result
// blocked with the reason, additionalContext is passed on; Stop's
// stop_hook_active is sent as set.
func TestPostToolUseAndStop(t *testing.T) {
	hasPython(t)
	r, _ := runner(t, `{"hooks": {"PostToolUse": [{"matcher": "bash", "hooks": [{"type": "command", "command": "python3 DIR/post.py"}]}],
		"Stop": [{"hooks": [{"type": "command", "command": "python3 DIR/stop.py"}]}]}}`, map[string]string{
		"post.py": `import json, sys
d = json.load(sys.stdin)
if d["tool_response"]["exitCode"] != 0:
    print(json.dumps({"decision": "block", "reason": "tests failed: " + d["tool_response"]["stderr"],
        "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "run make fix"}}))
`,
		"stop.py": `import json, sys
d = json.load(sys.stdin)
if not d["stop_hook_active"]:
    print(json.dumps({"decision": "block", "reason": "run the tests first"}))
`})
	ctx := context.Background()
	o := r.Run(ctx, PostToolUse, Input{ToolResponse: map[string]any{"exitCode": 1, "stderr": "FAIL x"}}, bashCall("go test"))
	if !o.Blocked || !strings.Contains(o.Reason, "tests failed: FAIL x") || o.Context != "run make fix" {
		t.Fatalf("post %+v", o)
	}
	if o := r.Run(ctx, PostToolUse, Input{ToolResponse: map[string]any{"exitCode": 0, "stderr": ""}}, bashCall("go test")); o.Blocked {
		t.Fatalf("post ok %+v", o)
	}
	f, tr := false, true
	if o := r.Run(ctx, Stop, Input{StopHookActive: &f}, nil); !o.Blocked || !strings.Contains(o.Reason, "run the tests first") {
		t.Fatalf("stop %+v", o)
	}
	if o := r.Run(ctx, Stop, Input{StopHookActive: &tr}, nil); o.Blocked {
		t.Fatalf("stop again %+v", o)
	}
}

// continue:false stops the turn with its reason; a bad file is refused
// whole, naming where.
func TestContinueFalseAndBadConfig(t *testing.T) {
	r, _ := runner(t, pre(`{"hooks": [{"type": "command", "command": "echo '{\"continue\": false, \"stopReason\": \"release freeze\"}'"}]}`), nil)
	if o := r.Run(context.Background(), PreToolUse, Input{}, bashCall("ls")); !o.Stop || o.StopReason != "release freeze" {
		t.Fatalf("%+v", o)
	}
	for conf, want := range map[string]string{
		`{"hooks": {"PreToolUze": []}}`:                                         `unknown event "PreToolUze"`,
		pre(`{"matcher": "(", "hooks": [{"type": "command", "command": "x"}]}`): `PreToolUse[0].matcher "("`,
		pre(`{"hooks": [{"type": "prompt", "command": "x"}]}`):                  `PreToolUse[0].hooks[0]: type "prompt"`,
		pre(`{"hooks": [{"type": "command", "command": " "}]}`):                 "no command",
		`{"hooks": `: "unexpected EOF",
	} {
		if _, err := Parse([]byte(conf), "h.json"); err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "h.json: ") {
			t.Errorf("%s: %v, want %q", conf, err, want)
		}
	}
}

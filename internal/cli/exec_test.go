package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/session"
	"gatehouse/internal/sessionhost"
	"gatehouse/internal/settings"
)

// testEnv keeps the developer's settings, sessions and OPENAI_* variables
// out: a temporary config and data folder, no retries.
func testEnv(t *testing.T, vars map[string]string) sessionhost.Env {
	t.Helper()
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "OPENAI_") {
			t.Setenv(k, "")
		}
	}
	return sessionhost.Env{
		ConfigDir: filepath.Join(t.TempDir(), "config"),
		DataDir:   filepath.Join(t.TempDir(), "data"),
		LookupEnv: func(k string) (string, bool) { v, ok := vars[k]; return v, ok },
	}
}

type execResult struct {
	code           int
	stdout, stderr string
}

func runExec(t *testing.T, ctx context.Context, env sessionhost.Env, args ...string) execResult {
	t.Helper()
	var out, errb bytes.Buffer
	code := Exec(ctx, args, env, strings.NewReader(""), &out, &errb)
	return execResult{code, out.String(), errb.String()}
}

func parseEvents(t *testing.T, stdout string) []protocol.Event {
	t.Helper()
	var evs []protocol.Event
	for i, line := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
		var e protocol.Event
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("line %d is not an event: %v\n%s", i+1, err, line)
		}
		if e.Seq != uint64(i+1) {
			t.Fatalf("line %d has seq %d", i+1, e.Seq)
		}
		evs = append(evs, e)
	}
	return evs
}

func TestExecJSONCreatesAFileThroughApplyPatch(t *testing.T) {
	for _, api := range []string{settings.APIChat, settings.APIResponses} {
		t.Run(api, func(t *testing.T) { execCreatesAFile(t, api) })
	}
}

// execCreatesAFile runs a turn over api (--api) that adds a file through
// apply_patch in auto mode.
func execCreatesAFile(t *testing.T, api string) {
	patch := `{"patch":"*** Begin Patch\n*** Add File: notes/hello.txt\n+hi\n*** End Patch"}`
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: llmtest.Text("Creating it."), ToolCalls: []llmtest.ToolCall{{ID: "call_1", Name: "apply_patch", Arguments: llmtest.Text(patch)}}},
		{Text: llmtest.Text("Created ", "notes/hello.txt.")},
	}})
	env := testEnv(t, nil)
	ws := t.TempDir()
	r := runExec(t, context.Background(), env, "--workspace", ws, "--prompt", "make a hello file",
		"--approval", "auto", "--base-url", srv.URL, "--model", "fake-model", "--api", api, "--json")
	if r.code != ExitCompleted {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	if b, err := os.ReadFile(filepath.Join(ws, "notes", "hello.txt")); err != nil || string(b) != "hi\n" {
		t.Fatalf("file: %q %v", b, err)
	}
	evs := parseEvents(t, r.stdout)
	first, last := evs[0], evs[len(evs)-1]
	if first.Type != protocol.TurnStarted || first.Payload.(protocol.TurnStartedPayload).Prompt != "make a hello file" {
		t.Errorf("first event %+v", first)
	}
	if last.Type != protocol.TurnStopped || last.Payload.(protocol.TurnStoppedPayload).Reason != protocol.StopCompleted {
		t.Fatalf("last event %+v", last)
	}
	var finished int
	for _, e := range evs {
		if e.SessionID != first.SessionID || e.SessionID == "" {
			t.Errorf("event %d of session %q", e.Seq, e.SessionID)
		}
		if p, ok := e.Payload.(protocol.ToolFinishedPayload); ok {
			finished++
			if p.IsError || p.Tool != "apply_patch" {
				t.Errorf("tool.finished %+v", p)
			}
		}
	}
	if finished != 1 {
		t.Errorf("%d tool.finished events", finished)
	}
	for _, req := range srv.ModelRequests() {
		if want := map[string]string{settings.APIChat: "/v1/chat/completions", settings.APIResponses: "/v1/responses"}[api]; req.Path != want {
			t.Errorf("asked %s, want %s", req.Path, want)
		}
	}
	// The session is saved like the window's.
	root, _ := filepath.EvalSymlinks(ws)
	list, err := session.NewStore(env.DataDir).List(root)
	if err != nil || len(list) != 1 || list[0].ID != first.SessionID || list[0].Turns != 1 {
		t.Fatalf("saved sessions %+v %v", list, err)
	}
}

// The key and base URL come from the environment, the model from the
// saved settings; without --json the text goes to stdout.
func TestExecTextUsesEnvironmentAndSavedSettings(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{APIKey: "sk-env", Responses: []llmtest.Response{
		{Text: llmtest.Text("Hello ", "there")},
	}})
	env := testEnv(t, map[string]string{"OPENAI_API_KEY": "sk-env", "OPENAI_BASE_URL": srv.URL})
	s := settings.Defaults()
	s.Model, s.BaseURL = "fake-model", "http://127.0.0.1:9/v1" // the environment wins
	if err := settings.NewStore(env.ConfigDir).Save(s); err != nil {
		t.Fatal(err)
	}
	r := runExec(t, context.Background(), env, "--workspace", t.TempDir(), "--prompt", "hi", "--approval", "auto")
	if r.code != ExitCompleted || r.stdout != "Hello there\n" {
		t.Fatalf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "completed · 0 tool calls") {
		t.Errorf("summary %q", r.stderr)
	}
}

func TestExecExitStatus(t *testing.T) {
	call := llmtest.ToolCall{ID: "c1", Name: "list_dir", Arguments: llmtest.Text(`{}`)}
	cases := []struct {
		name  string
		resp  llmtest.Response
		extra []string
		want  int
	}{
		{"max_steps", llmtest.Response{ToolCalls: []llmtest.ToolCall{call}}, []string{"--max-steps", "1"}, ExitMaxSteps},
		{"error", llmtest.Response{Error: &llmtest.APIError{Status: 500, Message: "boom"}}, nil, ExitError},
		{"cancelled", llmtest.Response{Text: llmtest.Text("Thinking"), Hang: true}, nil, ExitCancelled},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{c.resp}})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if c.want == ExitCancelled {
				go func() { // cancel once the stream hangs, as SIGINT does
					for len(srv.ModelRequests()) == 0 {
						time.Sleep(5 * time.Millisecond)
					}
					time.Sleep(50 * time.Millisecond)
					cancel()
				}()
			}
			args := append([]string{"--workspace", t.TempDir(), "--prompt", "go", "--approval", "auto",
				"--base-url", srv.URL, "--model", "fake-model", "--json"}, c.extra...)
			r := runExec(t, ctx, testEnv(t, nil), args...)
			if r.code != c.want {
				t.Fatalf("exit %d, want %d; stderr:\n%s", r.code, c.want, r.stderr)
			}
			evs := parseEvents(t, r.stdout)
			last := evs[len(evs)-1].Payload.(protocol.TurnStoppedPayload)
			if exitCode(last.Reason) != c.want {
				t.Errorf("turn.stopped reason %s", last.Reason)
			}
		})
	}
}

func TestExecUsage(t *testing.T) {
	env := testEnv(t, nil)
	ws := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--prompt", "x", "--approval", "auto"}, "--workspace is required"},
		{[]string{"--workspace", ws, "--approval", "auto"}, "--prompt is required"},
		{[]string{"--workspace", ws, "--prompt", "x"}, "no model"},
		{[]string{"--workspace", ws, "--prompt", "x", "--approval", "manual"}, "no model"},
		{[]string{"--workspace", ws, "--prompt", "x", "--approval", "yolo"}, "unknown --approval"},
		{[]string{"--workspace", ws, "--prompt", "x", "--approval", "auto"}, "no model"},
		{[]string{"--workspace", ws, "--prompt", "x", "--approval", "auto", "--model", "m", "--base-url", "ftp://x"}, "not an http"},
		{[]string{"--workspace", filepath.Join(ws, "missing"), "--prompt", "x", "--approval", "auto", "--model", "m"}, "workspace"},
		{[]string{"--workspace", ws, "--prompt", "x", "stray"}, "unexpected arguments"},
		{[]string{"--bogus"}, "flag provided but not defined"},
		{[]string{"--workspace", ws, "--prompt", "x", "--approval", "auto", "--model", "m", "--api", "completions"}, `unknown --api "completions"`},
	} {
		r := runExec(t, context.Background(), env, c.args...)
		if r.code != ExitUsage || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%q: exit %d, stderr %q (want %q)", c.args, r.code, r.stderr, c.want)
		}
	}
}

// GATEHOUSE_API chooses the API when no flag does; an unknown value there
// is a usage error naming the variable.
func TestExecAPIFromTheEnvironment(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: llmtest.Text("ok")}}})
	r := runExec(t, context.Background(), testEnv(t, map[string]string{settings.EnvAPI: "responses"}),
		"--workspace", t.TempDir(), "--prompt", "hi", "--approval", "auto", "--base-url", srv.URL, "--model", "fake-model")
	if r.code != ExitCompleted || srv.ModelRequests()[0].Path != "/v1/responses" {
		t.Fatalf("exit %d, requests %+v, stderr %q", r.code, srv.ModelRequests(), r.stderr)
	}
	r = runExec(t, context.Background(), testEnv(t, map[string]string{settings.EnvAPI: "v2"}),
		"--workspace", t.TempDir(), "--prompt", "hi", "--approval", "auto", "--model", "fake-model")
	if r.code != ExitUsage || !strings.Contains(r.stderr, settings.EnvAPI) {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
}

// exec --approval plan prints the model's plan and exits without writing.
func TestExecPlanPrintsThePlan(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "write_file", Arguments: llmtest.Text(`{"path":"x.txt","content":"x"}`)}}},
		{Text: llmtest.Text("Looking."), ToolCalls: []llmtest.ToolCall{{ID: "c2", Name: "propose_plan",
			Arguments: llmtest.Text(`{"plan":"## Plan\n1. Write x.txt"}`)}}},
	}})
	env := testEnv(t, map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": srv.URL})
	ws := t.TempDir()
	r := runExec(t, context.Background(), env, "--workspace", ws, "--prompt", "add x", "--approval", "plan", "--model", "fake-model")
	if r.code != ExitCompleted || r.stdout != "Looking.\n## Plan\n1. Write x.txt\n" {
		t.Fatalf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(ws, "x.txt")); err == nil {
		t.Error("plan mode wrote x.txt")
	}
}

// ask_user in exec without a terminal answers the model, clearly, that no
// one can answer; the turn goes on.
func TestExecAskUserWithoutATerminal(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "q1", Name: "ask_user", Arguments: llmtest.Text(`{"question":"Which port?","choices":["8080","9090"]}`)}}},
		{Text: llmtest.Text("I chose 8080.")},
	}})
	env := testEnv(t, map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": srv.URL})
	r := runExec(t, context.Background(), env, "--workspace", t.TempDir(), "--prompt", "serve", "--approval", "safe", "--model", "fake-model", "--json")
	if r.code != ExitCompleted {
		t.Fatalf("exit %d stderr %q", r.code, r.stderr)
	}
	var result string
	for _, e := range parseEvents(t, r.stdout) {
		if p, ok := e.Payload.(protocol.ToolFinishedPayload); ok && p.CallID == "q1" {
			result = string(p.Result)
			if !p.IsError {
				t.Error("ask_user without a terminal is not an error result")
			}
		}
	}
	if !strings.Contains(result, "no_one_to_ask") || !strings.Contains(result, "no one can answer") {
		t.Errorf("ask_user result %s", result)
	}
}

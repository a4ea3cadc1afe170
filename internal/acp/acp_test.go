package acp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"gatehouse/internal/llm/llmtest"
)

const updatePatch = `{"patch":"*** Begin Patch\n*** Update File: a.txt\n@@\n-old\n+new\n*** End Patch"}`

func patchCall(id string) llmtest.ToolCall {
	return llmtest.ToolCall{ID: id, Name: "apply_patch", Arguments: llmtest.Text(updatePatch)}
}

func TestInitializeOffersLoadAndTextOnly(t *testing.T) {
	e := startEditor(t, testEnv(t), llmtest.Start(t, llmtest.Script{}))
	r := e.initialize()
	if !r.AgentCapabilities.LoadSession {
		t.Error("loadSession not offered")
	}
	pc := r.AgentCapabilities.PromptCapabilities
	if !pc.Image || pc.Audio || pc.EmbeddedContext {
		t.Errorf("prompt capabilities %+v: the runtime reads text and images", pc)
	}
	if r.ProtocolVersion != sdk.ProtocolVersionNumber || r.AgentInfo == nil || r.AgentInfo.Name != "gatehouse" {
		t.Errorf("initialize %+v", r)
	}
}

func TestPromptAppliesAPatchAfterAllowOnce(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: llmtest.Text("Changing it."), ToolCalls: []llmtest.ToolCall{patchCall("call_1")}},
		{Text: llmtest.Text("Done.")},
	}})
	ws := workspaceWith(t, map[string]string{"a.txt": "old\n"})
	e := startEditor(t, testEnv(t), srv)
	e.initialize()
	s := e.newSession(ws)
	if s.Modes == nil || s.Modes.CurrentModeId != "safe" || len(s.Modes.AvailableModes) != 4 {
		t.Fatalf("modes %+v", s.Modes)
	}
	r, err := e.prompt(context.Background(), s.SessionId, "change a.txt")
	if err != nil || r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v", r, err)
	}
	if got := readFile(t, filepath.Join(ws, "a.txt")); got != "new\n" {
		t.Errorf("a.txt = %q", got)
	}
	us, perms := e.seen()
	if len(perms) != 1 {
		t.Fatalf("%d permission requests", len(perms))
	}
	p := perms[0]
	var kinds []string
	for _, o := range p.Options {
		kinds = append(kinds, string(o.Kind))
	}
	if strings.Join(kinds, ",") != "allow_once,allow_always,reject_once" {
		t.Errorf("options %v", kinds)
	}
	if p.ToolCall.ToolCallId != "call_1" || len(p.ToolCall.Content) != 1 || p.ToolCall.Content[0].Diff == nil {
		t.Fatalf("permission tool call %+v", p.ToolCall)
	}
	checkDiff(t, p.ToolCall.Content[0].Diff, "a.txt", "old\n", "new\n")

	var started *sdk.SessionUpdateToolCall
	for _, u := range us {
		if c := u.Update.ToolCall; c != nil && c.ToolCallId == "call_1" {
			started = c
		}
		if u.SessionId != s.SessionId {
			t.Errorf("update for session %q", u.SessionId)
		}
	}
	if started == nil || started.Kind != sdk.ToolKindEdit || started.Title != "Edit a.txt" ||
		len(started.Locations) != 1 || started.Locations[0].Path != filepath.Join(ws, "a.txt") {
		t.Fatalf("tool_call %+v", started)
	}
	last := lastToolUpdates(us)["call_1"]
	if last == nil || last.Status == nil || *last.Status != sdk.ToolCallStatusCompleted || len(last.Content) != 1 ||
		last.Content[0].Diff == nil {
		t.Fatalf("last tool_call_update %+v", last)
	}
	checkDiff(t, last.Content[0].Diff, "a.txt", "old\n", "new\n")
	if got := agentText(us); got != "Changing it.Done." {
		t.Errorf("agent text %q", got)
	}
}

func checkDiff(t *testing.T, d *sdk.ToolCallContentDiff, path, old, new string) {
	t.Helper()
	if d.Path != path || d.NewText != new || d.OldText == nil || *d.OldText != old {
		t.Errorf("diff %s %v→%q, want %s %q→%q", d.Path, d.OldText, d.NewText, path, old, new)
	}
}

func TestRejectOnceEndsTheTurnBlocked(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{patchCall("call_1")}},
	}})
	ws := workspaceWith(t, map[string]string{"a.txt": "old\n"})
	e := startEditor(t, testEnv(t), srv)
	e.answer = func(context.Context, sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
		return choose(optRejectOnce), nil
	}
	e.initialize()
	s := e.newSession(ws)
	r, err := e.prompt(context.Background(), s.SessionId, "change a.txt")
	if err != nil || r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v", r, err)
	}
	if got := readFile(t, filepath.Join(ws, "a.txt")); got != "old\n" {
		t.Errorf("a.txt = %q: the rejected patch was written", got)
	}
	us, _ := e.seen()
	lastMsg := us[len(us)-1].Update.AgentMessageChunk
	if lastMsg == nil || !strings.Contains(lastMsg.Content.Text.Text, "apply_patch was blocked by approval (rejected in the editor)") {
		t.Fatalf("last update %+v", us[len(us)-1].Update)
	}
	if last := lastToolUpdates(us)["call_1"]; last == nil || *last.Status != sdk.ToolCallStatusFailed {
		t.Errorf("rejected call's update %+v", last)
	}
}

func TestAllowAlwaysCoversTheSameCallLater(t *testing.T) {
	write := `{"path":"notes.txt","content":"hi\n"}`
	call := func(id string) llmtest.ToolCall {
		return llmtest.ToolCall{ID: id, Name: "write_file", Arguments: llmtest.Text(write)}
	}
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("call_1")}},
		{ToolCalls: []llmtest.ToolCall{call("call_2")}},
		{Text: llmtest.Text("Written twice.")},
	}})
	ws := workspaceWith(t, nil)
	e := startEditor(t, testEnv(t), srv)
	e.answer = func(_ context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
		for _, o := range p.Options {
			if o.Kind == sdk.PermissionOptionKindAllowAlways && strings.Contains(o.Name, "write_file on notes.txt") {
				return choose(string(o.OptionId)), nil
			}
		}
		t.Errorf("no allow_always for the file: %+v", p.Options)
		return choose(optRejectOnce), nil
	}
	e.initialize()
	s := e.newSession(ws)
	r, err := e.prompt(context.Background(), s.SessionId, "write notes twice")
	if err != nil || r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v", r, err)
	}
	us, perms := e.seen()
	if len(perms) != 1 || perms[0].ToolCall.ToolCallId != "call_1" {
		t.Fatalf("permission requests %+v: the second call should ride on the rule", perms)
	}
	if d := perms[0].ToolCall.Content[0].Diff; d == nil || d.Path != "notes.txt" || d.OldText != nil || d.NewText != "hi\n" {
		t.Errorf("a new file's diff %+v", d)
	}
	ups := lastToolUpdates(us)
	for _, id := range []sdk.ToolCallId{"call_1", "call_2"} {
		if u := ups[id]; u == nil || *u.Status != sdk.ToolCallStatusCompleted {
			t.Errorf("%s: %+v", id, u)
		}
	}
	if got := readFile(t, filepath.Join(ws, "notes.txt")); got != "hi\n" {
		t.Errorf("notes.txt = %q", got)
	}
}

func TestSetModeAutoRunsWithoutAsking(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{
			{ID: "call_1", Name: "bash", Arguments: llmtest.Text(`{"action":"exec","command":"echo hello > out.txt; echo said hello"}`)},
			patchCall("call_2"),
		}},
		{Text: llmtest.Text("Ran it.")},
	}})
	ws := workspaceWith(t, map[string]string{"a.txt": "old\n"})
	e := startEditor(t, testEnv(t), srv)
	e.initialize()
	s := e.newSession(ws)
	ctx := context.Background()
	if _, err := e.conn.SetSessionMode(ctx, sdk.SetSessionModeRequest{SessionId: s.SessionId, ModeId: "reckless"}); err == nil {
		t.Error("an unknown mode was accepted")
	}
	if _, err := e.conn.SetSessionMode(ctx, sdk.SetSessionModeRequest{SessionId: s.SessionId, ModeId: "auto"}); err != nil {
		t.Fatal(err)
	}
	r, err := e.prompt(ctx, s.SessionId, "run it")
	if err != nil || r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v", r, err)
	}
	us, perms := e.seen()
	if len(perms) != 0 {
		t.Errorf("auto asked %d times", len(perms))
	}
	if got := readFile(t, filepath.Join(ws, "out.txt")); got != "hello\n" {
		t.Errorf("out.txt = %q", got)
	}
	var kind sdk.ToolKind
	for _, u := range us {
		if c := u.Update.ToolCall; c != nil && c.ToolCallId == "call_1" {
			kind = c.Kind
		}
	}
	last := lastToolUpdates(us)["call_1"]
	if kind != sdk.ToolKindExecute || last == nil || len(last.Content) != 1 || last.Content[0].Content == nil {
		t.Fatalf("bash call: kind %q, last update %+v", kind, last)
	}
	text := last.Content[0].Content.Content.Text.Text
	if !strings.Contains(text, "$ echo hello > out.txt; echo said hello") || !strings.Contains(text, "said hello") {
		t.Errorf("bash content %q", text)
	}
	// A patch that ran without asking still shows as a diff.
	patched := lastToolUpdates(us)["call_2"]
	if patched == nil || len(patched.Content) != 1 || patched.Content[0].Diff == nil {
		t.Fatalf("patch's last update %+v", patched)
	}
	checkDiff(t, patched.Content[0].Diff, "a.txt", "old\n", "new\n")
}

func TestLoadReplaysASavedSession(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "call_1", Name: "read_file", Arguments: llmtest.Text(`{"path":"a.txt"}`)}}},
		{Text: llmtest.Text("It says old.")},
		{Text: llmtest.Text("Still old.")},
	}})
	ws := workspaceWith(t, map[string]string{"a.txt": "old\n"})
	env := testEnv(t)
	first := startEditor(t, env, srv)
	first.initialize()
	id := first.newSession(ws).SessionId
	if r, err := first.prompt(context.Background(), id, "what does a.txt say?"); err != nil || r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v", r, err)
	}
	first.stop()

	second := startEditor(t, env, srv)
	second.initialize()
	ctx := context.Background()
	if _, err := second.conn.LoadSession(ctx, sdk.LoadSessionRequest{SessionId: "nosuchsession", Cwd: ws, McpServers: []sdk.McpServer{}}); err == nil {
		t.Error("an unknown session loaded")
	}
	lr, err := second.conn.LoadSession(ctx, sdk.LoadSessionRequest{SessionId: id, Cwd: ws, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatalf("session/load: %v", err)
	}
	if lr.Modes == nil || lr.Modes.CurrentModeId != "safe" {
		t.Errorf("modes %+v", lr.Modes)
	}
	us, _ := second.seen()
	var got []string
	for _, u := range us {
		switch {
		case u.Update.UserMessageChunk != nil:
			got = append(got, "user: "+u.Update.UserMessageChunk.Content.Text.Text)
		case u.Update.AgentMessageChunk != nil:
			got = append(got, "agent: "+u.Update.AgentMessageChunk.Content.Text.Text)
		case u.Update.ToolCall != nil:
			got = append(got, "tool: "+u.Update.ToolCall.Title)
		case u.Update.ToolCallUpdate != nil:
			got = append(got, "status: "+string(*u.Update.ToolCallUpdate.Status))
		}
	}
	want := []string{"user: what does a.txt say?", "tool: Read a.txt", "status: completed", "agent: It says old."}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("replay:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The loaded session goes on with its history.
	if r, err := second.prompt(ctx, id, "and now?"); err != nil || r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt after load: %+v %v", r, err)
	}
	reqs := srv.Requests()
	if body := string(reqs[len(reqs)-1].Body); !strings.Contains(body, "It says old.") {
		t.Errorf("the loaded session's history was not sent: %s", body)
	}
}

func TestStopReasonsMaxStepsAndError(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "call_1", Name: "list_dir", Arguments: llmtest.Text(`{}`)}}},
		{Error: &llmtest.APIError{Status: 400, Code: "invalid_request_error", Message: "the model refused the request"}},
	}})
	ws := workspaceWith(t, nil)
	e := startEditor(t, testEnv(t), srv, "--max-steps", "1")
	e.initialize()
	s := e.newSession(ws)
	r, err := e.prompt(context.Background(), s.SessionId, "look around")
	if err != nil || r.StopReason != sdk.StopReasonMaxTurnRequests {
		t.Fatalf("max steps: %+v %v", r, err)
	}
	_, err = e.prompt(context.Background(), s.SessionId, "again")
	re := requestError(t, err)
	if re.Code != -32603 || !strings.Contains(re.Message, "the model refused the request") {
		t.Errorf("error %+v", re)
	}
}

// A command's question shows it with the dialog's warnings; allow_always is
// offered only when a rule can cover the call.
func TestBashPermissionShowsTheCommandAndItsScope(t *testing.T) {
	bash := func(id, cmd string) llmtest.ToolCall {
		args, _ := json.Marshal(map[string]string{"action": "exec", "command": cmd})
		return llmtest.ToolCall{ID: id, Name: "bash", Arguments: llmtest.Text(string(args))}
	}
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{bash("call_1", "rm -f gone.txt")}},
		{ToolCalls: []llmtest.ToolCall{bash("call_2", "touch made.txt")}},
		{ToolCalls: []llmtest.ToolCall{bash("call_3", "sh -c 'echo hi'")}},
		{Text: llmtest.Text("All ran.")},
	}})
	ws := workspaceWith(t, map[string]string{"gone.txt": "x"})
	e := startEditor(t, testEnv(t), srv)
	e.initialize()
	s := e.newSession(ws)
	if r, err := e.prompt(context.Background(), s.SessionId, "clean up"); err != nil || r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v", r, err)
	}
	_, perms := e.seen()
	if len(perms) != 3 {
		t.Fatalf("%d permission requests", len(perms))
	}
	options := func(p sdk.RequestPermissionRequest) (kinds []string) {
		for _, o := range p.Options {
			kinds = append(kinds, string(o.Kind))
		}
		return kinds
	}
	text := perms[0].ToolCall.Content[0].Content.Content.Text.Text
	if !strings.Contains(text, "$ rm -f gone.txt") || !strings.Contains(text, "deletes files") {
		t.Errorf("rm's question %q", text)
	}
	if got := strings.Join(options(perms[1]), ","); got != "allow_once,allow_always,reject_once" ||
		!strings.Contains(perms[1].Options[1].Name, "`touch made.txt`") {
		t.Errorf("touch's options %s %+v", got, perms[1].Options)
	}
	if got := strings.Join(options(perms[2]), ","); got != "allow_once,reject_once" {
		t.Errorf("sh -c's options %s: no rule can cover it", got)
	}
	if _, err := os.Stat(filepath.Join(ws, "gone.txt")); !os.IsNotExist(err) {
		t.Errorf("gone.txt: %v", err)
	}
}

package acp

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/sessionhost"
	"gatehouse/internal/syncbuf"
)

// testEnv keeps the developer's settings, sessions and OPENAI_* variables
// out: a temporary config and data folder, no retries.
func testEnv(t *testing.T) sessionhost.Env {
	t.Helper()
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "OPENAI_") || k == "GATEHOUSE_APPROVAL" {
			t.Setenv(k, "")
		}
	}
	return sessionhost.Env{ConfigDir: filepath.Join(t.TempDir(), "config"), DataDir: filepath.Join(t.TempDir(), "data"),
		LookupEnv: func(string) (string, bool) { return "", false }, Version: "test"}
}

// editor is the client side of one `gatehouse acp` run in-process: the
// SDK's client connection over a pair of pipes, recording what it is sent.
type editor struct {
	t    *testing.T
	conn *sdk.ClientSideConnection

	mu          sync.Mutex
	updates     []sdk.SessionNotification
	permissions []sdk.RequestPermissionRequest
	// onUpdate, when set, hears each update as it arrives.
	onUpdate func(sdk.SessionNotification)
	// answer answers each permission request (default: allow_once).
	answer func(ctx context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error)
	// elicitations are the form requests seen (ask.go's test answers them).
	elicitations []sdk.UnstableCreateElicitationRequest

	toAgent *io.PipeWriter
	done    chan int
	stderr  *syncbuf.Buffer
}

// startEditor runs `gatehouse acp args…` against srv in env and connects an
// editor to it; it is shut down (stdin closed, exit awaited) when the test
// ends.
func startEditor(t *testing.T, env sessionhost.Env, srv *llmtest.Server, args ...string) *editor {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	e := &editor{t: t, toAgent: inW, done: make(chan int, 1), stderr: &syncbuf.Buffer{}}
	args = append([]string{"--base-url", srv.URL, "--model", "fake-model"}, args...)
	go func() {
		code := Run(context.Background(), args, env, inR, outW, e.stderr)
		outW.Close()
		e.done <- code
	}()
	e.conn = sdk.NewClientSideConnection(e, inW, outR)
	t.Cleanup(func() { e.stop() })
	return e
}

// stop closes the agent's stdin and waits for it to exit.
func (e *editor) stop() int {
	e.toAgent.Close()
	code, ok := <-e.done
	if ok {
		close(e.done)
		if code != 0 {
			e.t.Errorf("gatehouse acp exited %d; stderr:\n%s", code, e.stderr.String())
		}
	}
	return code
}

func (e *editor) initialize() sdk.InitializeResponse {
	e.t.Helper()
	r, err := e.conn.Initialize(context.Background(), sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber})
	if err != nil {
		e.t.Fatalf("initialize: %v", err)
	}
	return r
}

func (e *editor) newSession(cwd string) sdk.NewSessionResponse {
	e.t.Helper()
	r, err := e.conn.NewSession(context.Background(), sdk.NewSessionRequest{Cwd: cwd, McpServers: []sdk.McpServer{}})
	if err != nil {
		e.t.Fatalf("session/new: %v", err)
	}
	return r
}

func (e *editor) prompt(ctx context.Context, id sdk.SessionId, text string) (sdk.PromptResponse, error) {
	return e.conn.Prompt(ctx, sdk.PromptRequest{SessionId: id, Prompt: []sdk.ContentBlock{sdk.TextBlock(text)}})
}

// SessionUpdate implements sdk.Client.
func (e *editor) SessionUpdate(ctx context.Context, n sdk.SessionNotification) error {
	e.mu.Lock()
	e.updates = append(e.updates, n)
	hook := e.onUpdate
	e.mu.Unlock()
	if hook != nil {
		hook(n)
	}
	return nil
}

// RequestPermission implements sdk.Client.
func (e *editor) RequestPermission(ctx context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	e.mu.Lock()
	e.permissions = append(e.permissions, p)
	answer := e.answer
	e.mu.Unlock()
	if answer == nil {
		return choose(optAllowOnce), nil
	}
	return answer(ctx, p)
}

func choose(id string) sdk.RequestPermissionResponse {
	return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{
		Selected: &sdk.RequestPermissionOutcomeSelected{OptionId: sdk.PermissionOptionId(id)}}}
}

func (e *editor) seen() ([]sdk.SessionNotification, []sdk.RequestPermissionRequest) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]sdk.SessionNotification(nil), e.updates...), append([]sdk.RequestPermissionRequest(nil), e.permissions...)
}

// agentText is the assistant's text of the updates, in order.
func agentText(us []sdk.SessionNotification) string {
	var b strings.Builder
	for _, u := range us {
		if c := u.Update.AgentMessageChunk; c != nil && c.Content.Text != nil {
			b.WriteString(c.Content.Text.Text)
		}
	}
	return b.String()
}

// toolUpdates are the last tool_call_update of each call, by id.
func lastToolUpdates(us []sdk.SessionNotification) map[sdk.ToolCallId]*sdk.SessionToolCallUpdate {
	out := map[sdk.ToolCallId]*sdk.SessionToolCallUpdate{}
	for _, u := range us {
		if c := u.Update.ToolCallUpdate; c != nil {
			out[c.ToolCallId] = c
		}
	}
	return out
}

// The editor's fs and terminal are never used: the runtime's own tools are.

func (e *editor) ReadTextFile(context.Context, sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	e.t.Error("the agent used the editor's fs/read_text_file")
	return sdk.ReadTextFileResponse{}, errors.New("not offered")
}

func (e *editor) WriteTextFile(context.Context, sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	e.t.Error("the agent used the editor's fs/write_text_file")
	return sdk.WriteTextFileResponse{}, errors.New("not offered")
}

func (e *editor) CreateTerminal(context.Context, sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	e.t.Error("the agent used the editor's terminal")
	return sdk.CreateTerminalResponse{}, errors.New("not offered")
}

func (e *editor) KillTerminal(context.Context, sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	return sdk.KillTerminalResponse{}, errors.New("not offered")
}

func (e *editor) TerminalOutput(context.Context, sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	return sdk.TerminalOutputResponse{}, errors.New("not offered")
}

func (e *editor) ReleaseTerminal(context.Context, sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	return sdk.ReleaseTerminalResponse{}, errors.New("not offered")
}

func (e *editor) WaitForTerminalExit(context.Context, sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	return sdk.WaitForTerminalExitResponse{}, errors.New("not offered")
}

// requestError is err as the JSON-RPC error the agent answered.
func requestError(t *testing.T, err error) *sdk.RequestError {
	t.Helper()
	var re *sdk.RequestError
	if !errors.As(err, &re) {
		t.Fatalf("want a JSON-RPC error, got %v", err)
	}
	return re
}

// workspaceWith is a temporary folder holding files (path → content),
// symlinks resolved.
func workspaceWith(t *testing.T, files map[string]string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for p, c := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

package acp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/syncbuf"
)

// cancelWhileAsking prompts a patch, waits for its permission request and
// sends session/cancel; answer is how the editor then treats the request.
func cancelWhileAsking(t *testing.T, answer func(ctx context.Context, cancelled <-chan struct{}) (sdk.RequestPermissionResponse, error)) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{patchCall("call_1")}},
	}})
	ws := workspaceWith(t, map[string]string{"a.txt": "old\n"})
	e := startEditor(t, testEnv(t), srv)
	asked, cancelled := make(chan struct{}), make(chan struct{})
	e.answer = func(ctx context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
		close(asked)
		return answer(ctx, cancelled)
	}
	e.initialize()
	s := e.newSession(ws)
	type result struct {
		r   sdk.PromptResponse
		err error
	}
	done := make(chan result, 1)
	go func() {
		r, err := e.prompt(context.Background(), s.SessionId, "change a.txt")
		done <- result{r, err}
	}()
	<-asked
	if err := e.conn.Cancel(context.Background(), sdk.CancelNotification{SessionId: s.SessionId}); err != nil {
		t.Fatal(err)
	}
	close(cancelled)
	res := <-done
	if res.err != nil || res.r.StopReason != sdk.StopReasonCancelled {
		t.Fatalf("prompt: %+v %v", res.r, res.err)
	}
	if got := readFile(t, filepath.Join(ws, "a.txt")); got != "old\n" {
		t.Errorf("a.txt = %q", got)
	}
	// The session serves the next prompt.
	if _, err := e.conn.SetSessionMode(context.Background(), sdk.SetSessionModeRequest{SessionId: s.SessionId, ModeId: "auto"}); err != nil {
		t.Errorf("after the cancel: %v", err)
	}
}

func TestCancelDuringPermissionRequest(t *testing.T) {
	// The editor answers the pending request as cancelled, as ACP asks.
	cancelWhileAsking(t, func(ctx context.Context, cancelled <-chan struct{}) (sdk.RequestPermissionResponse, error) {
		<-cancelled
		return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{
			Cancelled: &sdk.RequestPermissionOutcomeCancelled{Outcome: "cancelled"}}}, nil
	})
}

func TestCancelWhenTheEditorNeverAnswers(t *testing.T) {
	// The editor never answers the request (it only stops waiting when the
	// agent withdraws it): the cancel still ends the prompt.
	cancelWhileAsking(t, func(ctx context.Context, _ <-chan struct{}) (sdk.RequestPermissionResponse, error) {
		<-ctx.Done()
		return sdk.RequestPermissionResponse{}, ctx.Err()
	})
}

func TestProtocolErrors(t *testing.T) {
	e := startEditor(t, testEnv(t), llmtest.Start(t, llmtest.Script{}))
	e.initialize()
	ctx := context.Background()
	_, err := e.prompt(ctx, "nosuchsession", "hello")
	if re := requestError(t, err); re.Code != -32602 || !strings.Contains(re.Message, "unknown session") {
		t.Errorf("prompt for an unknown session: %+v", re)
	}
	file := filepath.Join(workspaceWith(t, map[string]string{"f.txt": "x"}), "f.txt")
	for _, cwd := range []string{"relative/dir", filepath.Join(t.TempDir(), "missing"), file} {
		_, err := e.conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: cwd, McpServers: []sdk.McpServer{}})
		if re := requestError(t, err); re.Code != -32602 {
			t.Errorf("cwd %q: %+v", cwd, re)
		}
	}
	_, err = e.conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: workspaceWith(t, nil),
		McpServers: []sdk.McpServer{{Sse: &sdk.McpServerSseInline{Name: "old", Type: "sse", Url: "http://127.0.0.1:1/sse", Headers: []sdk.HttpHeader{}}}}})
	if re := requestError(t, err); re.Code != -32602 || !strings.Contains(re.Message, "SSE") {
		t.Errorf("an SSE MCP server: %+v", re)
	}
	s := e.newSession(workspaceWith(t, nil))
	_, err = e.conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId,
		Prompt: []sdk.ContentBlock{sdk.ImageBlock("aGk=", "image/png")}})
	if re := requestError(t, err); re.Code != -32602 {
		t.Errorf("an image prompt: %+v", re)
	}
}

// TestMalformedLinesAndUnknownMethods speaks raw JSON-RPC lines: a line that
// is not JSON is skipped and the process goes on serving; an unknown
// method gets -32601.
func TestMalformedLinesAndUnknownMethods(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	stderr := &syncbuf.Buffer{}
	done := make(chan int, 1)
	go func() {
		code := Run(context.Background(), []string{"--base-url", srv.URL, "--model", "fake-model"}, testEnv(t), inR, outW, stderr)
		outW.Close()
		done <- code
	}()
	lines := bufio.NewScanner(outR)
	call := func(line string) map[string]any {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
		if !lines.Scan() {
			t.Fatalf("no answer to %s", line)
		}
		var m map[string]any
		if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
			t.Fatalf("answer %q: %v", lines.Text(), err)
		}
		return m
	}
	io.WriteString(inW, "this is not json\n{\"jsonrpc\":\"2.0\",\"id\":\n")
	m := call(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`)
	if m["id"] != float64(1) || m["result"] == nil {
		t.Fatalf("initialize after garbage: %v", m)
	}
	m = call(`{"jsonrpc":"2.0","id":2,"method":"nosuch/method","params":{}}`)
	if e, _ := m["error"].(map[string]any); e == nil || e["code"] != float64(-32601) {
		t.Fatalf("unknown method: %v", m)
	}
	m = call(`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"nope","prompt":[]}}`)
	if e, _ := m["error"].(map[string]any); e == nil || m["id"] != float64(3) {
		t.Fatalf("prompt for no session: %v", m)
	}
	inW.Close()
	for lines.Scan() {
		t.Errorf("stdout after the end: %q", lines.Text())
	}
	if code := <-done; code != 0 {
		t.Errorf("exit %d", code)
	}
	if !strings.Contains(stderr.String(), "failed to parse incoming message") {
		t.Errorf("the malformed line was not logged on stderr: %q", stderr.String())
	}
}

// TestNewPromptCancelsTheRunningOne: the SDK cancels a session's running
// prompt when another arrives; the first ends cancelled, the second runs.
func TestNewPromptCancelsTheRunningOne(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: llmtest.Text("Thinking"), Hang: true},
		{Text: llmtest.Text("Second answer.")},
	}})
	e := startEditor(t, testEnv(t), srv)
	streaming := make(chan struct{})
	var once sync.Once
	e.onUpdate = func(n sdk.SessionNotification) {
		if n.Update.AgentMessageChunk != nil {
			once.Do(func() { close(streaming) })
		}
	}
	e.initialize()
	s := e.newSession(workspaceWith(t, nil))
	first := make(chan sdk.PromptResponse, 1)
	go func() {
		r, err := e.prompt(context.Background(), s.SessionId, "first")
		if err != nil {
			t.Errorf("first prompt: %v", err)
		}
		first <- r
	}()
	<-streaming
	r, err := e.prompt(context.Background(), s.SessionId, "second")
	if err != nil || r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("second prompt: %+v %v", r, err)
	}
	if r := <-first; r.StopReason != sdk.StopReasonCancelled {
		t.Errorf("first prompt: %+v", r)
	}
	us, _ := e.seen()
	if got := agentText(us); !strings.HasSuffix(got, "Second answer.") {
		t.Errorf("agent text %q", got)
	}
}

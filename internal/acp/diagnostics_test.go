//go:build linux

package acp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/textproto"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/supervisor/suptest"
)

// The test binary is also a fake language server (ACP_FAKE_LSP set): it
// answers initialize and publishes one error per line "BAD" of each
// document it is given.
func TestMain(m *testing.M) {
	if os.Getenv("ACP_FAKE_LSP") != "" {
		fakeLanguageServer(os.Stdin, os.Stdout)
		return
	}
	os.Exit(m.Run())
}

func fakeLanguageServer(in io.Reader, out io.Writer) {
	r := textproto.NewReader(bufio.NewReader(in))
	send := func(v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(out, "Content-Length: %d\r\n\r\n%s", len(b), b)
	}
	for {
		h, err := r.ReadMIMEHeader()
		if err != nil {
			return
		}
		n, _ := strconv.Atoi(h.Get("Content-Length"))
		body := make([]byte, n)
		if _, err := io.ReadFull(r.R, body); err != nil {
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				TextDocument struct {
					URI     string `json:"uri"`
					Version int    `json:"version"`
					Text    string `json:"text"`
				} `json:"textDocument"`
				ContentChanges []struct {
					Text string `json:"text"`
				} `json:"contentChanges"`
			} `json:"params"`
		}
		_ = json.Unmarshal(body, &m)
		switch m.Method {
		case "initialize", "shutdown":
			send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{"capabilities": map[string]any{}}})
		case "exit":
			return
		case "textDocument/didOpen", "textDocument/didChange":
			text := m.Params.TextDocument.Text
			if cs := m.Params.ContentChanges; len(cs) > 0 {
				text = cs[len(cs)-1].Text
			}
			ds := []any{}
			for i, l := range strings.Split(text, "\n") {
				if strings.Contains(l, "BAD") {
					ds = append(ds, map[string]any{"severity": 1, "message": "bad line",
						"range": map[string]any{"start": map[string]int{"line": i}, "end": map[string]int{"line": i, "character": 3}}})
				}
			}
			send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": map[string]any{
				"uri": m.Params.TextDocument.URI, "version": m.Params.TextDocument.Version, "diagnostics": ds}})
		}
	}
}

// The editor's permission request for a patch says what the language
// servers find the change would introduce (the summary the terminal
// prompt prints, approval.DiagnosticsSummary), before anything is written:
// in the request itself or in an update of its pending call.
func TestPermissionRequestCarriesTheDiagnosticsSummary(t *testing.T) {
	suptest.Confining(t)
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "call_1", Name: "apply_patch",
			Arguments: llmtest.Text(`{"patch":"*** Begin Patch\n*** Update File: a.txt\n@@\n-old\n+BAD\n*** End Patch"}`)}}},
		{Text: llmtest.Text("Done.")},
	}})
	ws := workspaceWith(t, map[string]string{"a.txt": "old\n"})
	env := testEnv(t)
	// The server runs confined to the workspace: its program is there.
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	prog, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(ws, "fake-lsp")
	if err := os.WriteFile(exe, prog, 0o755); err != nil {
		t.Fatal(err)
	}
	settings := map[string]any{"languageServers": map[string]any{"fake": map[string]any{
		"command": exe, "filePatterns": []string{"*.txt"}, "env": map[string]string{"ACP_FAKE_LSP": "1"}}}}
	b, _ := json.Marshal(settings)
	if err := os.MkdirAll(env.ConfigDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(env.ConfigDir, "settings.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	const want = "introduces 1 error in a.txt"
	e := startEditor(t, env, srv)
	var told, unwritten bool
	e.answer = func(_ context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
		// The summary may be known when the request is sent, or come in
		// an update of the pending call while the editor asks.
		deadline := time.Now().Add(20 * time.Second)
		for !told && time.Now().Before(deadline) {
			told = strings.Contains(contentText(p.ToolCall.Content), want)
			us, _ := e.seen()
			for _, u := range us {
				if c := u.Update.ToolCallUpdate; c != nil && c.ToolCallId == "call_1" && strings.Contains(contentText(c.Content), want) {
					told = true
				}
			}
			if !told {
				time.Sleep(20 * time.Millisecond)
			}
		}
		unwritten = readFile(t, filepath.Join(ws, "a.txt")) == "old\n"
		return choose(optAllowOnce), nil
	}
	e.initialize()
	s := e.newSession(ws)
	if r, err := e.prompt(context.Background(), s.SessionId, "change a.txt"); err != nil || r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v", r, err)
	}
	if !told {
		us, perms := e.seen()
		var texts []string
		for _, p := range perms {
			texts = append(texts, "request: "+contentText(p.ToolCall.Content))
		}
		for _, u := range us {
			if c := u.Update.ToolCallUpdate; c != nil {
				texts = append(texts, "update: "+contentText(c.Content))
			}
		}
		t.Fatalf("the editor was never told %q: %q", want, texts)
	}
	if !unwritten {
		t.Error("a.txt was written before the editor answered")
	}
	if got := readFile(t, filepath.Join(ws, "a.txt")); got != "BAD\n" {
		t.Errorf("a.txt = %q after allow", got)
	}
}

// contentText is the text blocks of a call's content.
func contentText(cs []sdk.ToolCallContent) string {
	var b strings.Builder
	for _, c := range cs {
		if c.Content != nil && c.Content.Content.Text != nil {
			b.WriteString(c.Content.Content.Text.Text + "\n")
		}
	}
	return b.String()
}

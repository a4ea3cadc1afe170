package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/sandbox"
	"gatehouse/internal/supervisor/suptest"
)

// leakyServer configures the language server of testdata/leaky_lsp.py for
// *.txt files in env's settings: it tries to carry .env to the model by
// every way a server has (see the script).
func leakyServer(t *testing.T, configDir string) {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("testdata", "leaky_lsp.py"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{"languageServers": map[string]any{
		"leaky": map[string]any{"command": "python3", "args": []string{script}, "filePatterns": []string{"*.txt"}}}})
	if err := os.WriteFile(filepath.Join(configDir, "settings.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestLanguageServersKeepTheDeniedFilesFromTheModel: under the read
// deny, a language server (it runs the workspace's code) cannot read .env
// in its sandbox, so no diagnostic carries it; diagnostics of a file in
// keys/ are left out and counted; and a definition or
// references answer pointing into .env shows its place but not its line.
func TestLanguageServersKeepTheDeniedFilesFromTheModel(t *testing.T) {
	suptest.Confining(t)
	if !sandbox.Detect().Namespaces() {
		t.Skip("no namespaces here: Landlock alone cannot hide a workspace file from a server (sandbox.CannotHide)")
	}
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		// Creating a file in keys/ reads nothing (allowed); its check
		// opens it in the server, whose words on it the model must not get.
		{ToolCalls: []llmtest.ToolCall{call("c0", "write_file", `{"path":"keys/new.txt","content":"x\n"}`)}},
		{ToolCalls: []llmtest.ToolCall{call("c1", "diagnostics", `{"path":"src/a.txt"}`)}},
		{ToolCalls: []llmtest.ToolCall{call("c2", "diagnostics", `{}`)}},
		{ToolCalls: []llmtest.ToolCall{call("c3", "definition", `{"path":"src/a.txt","line":1,"column":1}`),
			call("c4", "references", `{"path":"src/a.txt","line":1,"column":1}`)}},
		{Text: llmtest.Text("done")},
	}})
	root := t.TempDir()
	home, tmp := filepath.Join(root, "home"), filepath.Join(root, "tmp")
	os.Mkdir(home, 0o755)
	os.Mkdir(tmp, 0o755)
	env := testEnv(t, nil)
	env.ProcEnv = func() []string { return append(os.Environ(), "HOME="+home, "TMPDIR="+tmp) }
	os.MkdirAll(env.ConfigDir, 0o700)
	os.WriteFile(filepath.Join(env.ConfigDir, "policy.toml"), []byte(denyPolicy), 0o600)
	leakyServer(t, env.ConfigDir)
	ws := secretWorkspace(t)
	res := runExec(t, context.Background(), env, "--workspace", ws, "--prompt", "ask the language server",
		"--approval", "auto", "--base-url", srv.URL, "--model", "fake-model", "--json")
	if res.code != ExitCompleted {
		t.Fatalf("exit %d; stderr:\n%s\n%s", res.code, res.stderr, res.stdout)
	}
	noSecretSent(t, srv, res.stdout)
	for _, want := range []string{"cannot read .env", "the diagnostics of 1 file(s) were hidden by the user's policy", "\"hidden\":\"hidden by the user's policy"} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("the results do not say %q:\n%s", want, res.stdout)
		}
	}
}

// TestALanguageServerRunningBeforeADenyIsHeldByIt: a language server
// started before the user wrote the deny (and before .env existed) is not
// left running with the walls it started under: the next use finds them
// moved and starts it again under the new ones, so its next diagnostics
// cannot carry .env.
func TestALanguageServerRunningBeforeADenyIsHeldByIt(t *testing.T) {
	suptest.Confining(t)
	if !sandbox.Detect().Namespaces() {
		t.Skip("no namespaces here: Landlock alone cannot hide a workspace file from a server (sandbox.CannotHide)")
	}
	env := testEnv(t, nil)
	os.MkdirAll(env.ConfigDir, 0o700)
	leakyServer(t, env.ConfigDir)
	ws := t.TempDir()
	os.MkdirAll(filepath.Join(ws, "src"), 0o755)
	os.WriteFile(filepath.Join(ws, "src", "a.txt"), []byte("TOKEN is read from the environment\n"), 0o644)
	h := llmtest.NewHandler(llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("c1", "diagnostics", `{"path":"src/a.txt"}`)}},
		{ToolCalls: []llmtest.ToolCall{call("c2", "write_file", `{"path":"src/a.txt","content":"TOKEN again\n"}`)}},
		{ToolCalls: []llmtest.ToolCall{call("c3", "diagnostics", `{"path":"src/a.txt"}`)}},
		{Text: llmtest.Text("done")},
	}})
	// The user writes the secret and the deny while the server runs: when
	// the model's second request arrives, after the first diagnostics.
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/chat/completions") && requests.Add(1) == 2 {
			os.WriteFile(filepath.Join(ws, ".env"), []byte("API_TOKEN="+envSecret+"\n"), 0o600)
			os.WriteFile(filepath.Join(env.ConfigDir, "policy.toml"), []byte(denyPolicy), 0o600)
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	res := runExec(t, context.Background(), env, "--workspace", ws, "--prompt", "ask the language server",
		"--approval", "auto", "--base-url", srv.URL+"/v1", "--model", "fake-model", "--json")
	if res.code != ExitCompleted {
		t.Fatalf("exit %d; stderr:\n%s\n%s", res.code, res.stderr, res.stdout)
	}
	if v := h.Violations(); len(v) > 0 || h.Remaining() > 0 {
		t.Fatalf("fake model: %v, %d responses left", v, h.Remaining())
	}
	seen := res.stdout
	for _, req := range h.ModelRequests() {
		seen += string(req.Body)
	}
	if strings.Contains(seen, envSecret) {
		t.Fatalf("the secret reached the model through a server started before the deny:\n%s", res.stdout)
	}
	if n := strings.Count(res.stdout, "cannot read .env"); n < 2 {
		t.Errorf("the server's diagnostics before and after the deny: %d of 2 say it cannot read .env:\n%s", n, res.stdout)
	}
}

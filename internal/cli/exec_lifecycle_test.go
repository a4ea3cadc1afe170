package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gatehouse/internal/llm/llmtest"
)

// A Stop hook written in Python for Claude Code makes an exec turn go on
// once: the model reads the hook's reason as the user's message, the next
// Stop input has stop_hook_active set and the hook lets it stop; the
// SessionStart and SessionEnd hooks of the run hear it open and close.
func TestExecStopHookGoesOnOnce(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: llmtest.Text("Done.")},
		{Text: llmtest.Text("The tests pass.")},
	}})
	env := testEnv(t, nil)
	dir := t.TempDir()
	stop := filepath.Join(dir, "stop.py")
	os.WriteFile(stop, []byte(`import json, sys
d = json.load(sys.stdin)
with open(sys.argv[1], "a") as f:
    f.write("%s active=%s\n" % (d["hook_event_name"], d.get("stop_hook_active")))
if not d.get("stop_hook_active"):
    print("run the tests before you stop", file=sys.stderr)
    sys.exit(2)
`), 0o755)
	record := filepath.Join(dir, "record.txt")
	rec := `python3 -c 'import json,sys; d=json.load(sys.stdin); open(sys.argv[1],"a").write(d["hook_event_name"]+" "+d.get("source",d.get("reason",""))+"\n")' ` + record
	os.MkdirAll(env.ConfigDir, 0o700)
	conf := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "python3 ` + stop + ` ` + record + `"}]}],
		"SessionStart": [{"hooks": [{"type": "command", "command": ` + strconv.Quote(rec) + `}]}],
		"SessionEnd": [{"hooks": [{"type": "command", "command": ` + strconv.Quote(rec) + `}]}]}}`
	if err := os.WriteFile(filepath.Join(env.ConfigDir, "hooks.json"), []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runExec(t, context.Background(), env, "--workspace", t.TempDir(), "--prompt", "finish",
		"--approval", "auto", "--base-url", srv.URL, "--model", "fake-model")
	if r.code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	body, ok := srv.ChatRequest(1)
	if !ok || !strings.Contains(string(body), "run the tests before you stop") {
		t.Fatalf("the model did not go on with the hook's reason: %s", body)
	}
	got, _ := os.ReadFile(record)
	want := "SessionStart startup\nStop active=False\nStop active=True\nSessionEnd other\n"
	if string(got) != want {
		t.Errorf("hooks heard\n%s\nwant\n%s", got, want)
	}
}

package review

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"gatehouse/internal/agents"
	"gatehouse/internal/approval"
	"gatehouse/internal/events"
	"gatehouse/internal/gitcmd"
	"gatehouse/internal/gitcmd/gittest"
	"gatehouse/internal/gitview"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime"
	"gatehouse/internal/runtime/runtimetest"
)

// isolateGit gives git a config of the test's own (no global or system
// settings of the machine).
func isolateGit(t *testing.T) {
	t.Helper()
	gittest.Home(t)
}

// gitRepo makes a repository in a new folder with files committed, and
// returns the folder.
func gitRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	isolateGit(t)
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	git(t, dir, "init", "-q")
	for p, c := range files {
		write(t, dir, p, c)
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "first")
	return dir
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := gitcmd.Run(context.Background(), "", dir, nil, nil, args...)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func write(t *testing.T, dir, p, c string) {
	t.Helper()
	full := filepath.Join(dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
		t.Fatal(err)
	}
}

// session is a window-like session on dir with agents attached, in mode,
// speaking to a fake model that plays script.
type session struct {
	srv    *llmtest.Server
	sess   *runtime.Session
	m      *agents.Manager
	repo   *gitview.Repo
	events []protocol.Event
}

func openSession(t *testing.T, dir string, script llmtest.Script, mode approval.Mode, trusted bool) *session {
	t.Helper()
	ws := runtimetest.Workspace(t, dir, nil)
	s := &session{srv: llmtest.Start(t, script)}
	var err error
	s.sess, err = runtime.New(runtime.Options{
		Workspace: ws, Model: runtimetest.Client(t, s.srv), NoWatch: true,
		Sink:    events.SinkFunc(func(e protocol.Event) { s.events = append(s.events, e) }),
		Mode:    func() approval.Mode { return mode },
		Gateway: func(id string, pub approval.Publisher) approval.Gateway { return approval.NewGUI(id) },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.sess.Close)
	if s.m, err = agents.Attach(s.sess, agents.Config{Definitions: agents.Builtins()}); err != nil {
		t.Fatal(err)
	}
	s.repo, err = gitview.Open(context.Background(), dir, func() bool { return trusted })
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// reportCall is a report_findings call of the fake model.
func reportCall(id string, findings ...map[string]any) llmtest.ToolCall {
	b, _ := json.Marshal(map[string]any{"findings": findings})
	return llmtest.ToolCall{ID: id, Name: agents.FindingsTool, Arguments: llmtest.Text(string(b))}
}

func finding(sev, file string, from, to int, title string) map[string]any {
	return map[string]any{"severity": sev, "file": file, "startLine": from, "endLine": to, "title": title, "explanation": "because " + title}
}

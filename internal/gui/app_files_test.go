//go:build linux

package gui

import (
	"gatehouse/internal/protocol"

	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/settings"
	"gatehouse/internal/watch"
)

// newFilesApp is newTestApp with seed files and the fake server returned.
func newFilesApp(t *testing.T, script llmtest.Script, seed map[string]string) (*App, string, *llmtest.Server) {
	t.Helper()
	srv := llmtest.Start(t, script)
	store := settings.NewStore(filepath.Join(t.TempDir(), "config"))
	app := NewApp(time.Now(), slog.New(slog.NewTextHandler(io.Discard, nil)), store, settings.Flags{}, "")
	if _, err := app.SaveSettings(SettingsInput{BaseURL: srv.URL, Model: "fake-model", APIKey: "sk-test"}); err != nil {
		t.Fatal(err)
	}
	if err := app.useMode("auto"); err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	for p, c := range seed {
		full := filepath.Join(ws, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := app.setWorkspace(ws); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { app.shutdown(context.Background()) })
	<-app.files.Load().Live().W.Ready()
	return app, ws, srv
}

func waitChanged(t *testing.T, app *App, path, badgeOrigin string) watch.ChangedFile {
	t.Helper()
	var last []watch.ChangedFile
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		last = app.ChangedFiles()
		for _, c := range last {
			if c.Path == path && c.Badge+" "+string(c.Origin) == badgeOrigin {
				return c
			}
		}
	}
	t.Fatalf("%s never became %q; changed files: %+v", path, badgeOrigin, last)
	return watch.ChangedFile{}
}

func TestFilesBindingsShowTheTreeAndTheAgentsChanges(t *testing.T) {
	app, ws, _ := newFilesApp(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "write_file", Arguments: llmtest.Text(`{"path":"src/a.txt","content":"new\n"}`)}}},
		{Text: llmtest.Text("done")},
	}}, map[string]string{"src/a.txt": "old\n", "node_modules/x/i.js": "x", "README.md": "# hi\n", "bin.dat": "\x00\x01"})

	ents, err := app.ListDir("")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		n := e.Name
		if e.IsDir {
			n += "/"
		}
		if e.Ignored {
			n += " (ignored)"
		}
		names = append(names, n)
	}
	if got := strings.Join(names, " "); got != "node_modules/ (ignored) src/ bin.dat README.md" {
		t.Fatalf("ListDir: %s", got)
	}
	if _, err := app.ListDir("../"); err == nil {
		t.Fatal("ListDir outside the workspace must fail")
	}
	if v, err := app.ReadFileForView("README.md"); err != nil || v.Content != "# hi\n" || v.Binary {
		t.Fatalf("ReadFileForView: %+v %v", v, err)
	}
	if v, err := app.ReadFileForView("bin.dat"); err != nil || !v.Binary || v.Content != "" || v.Size != 2 {
		t.Fatalf("binary view: %+v %v", v, err)
	}

	if _, err := app.Submit(protocol.Submission{Text: "change a"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	waitChanged(t, app, "src/a.txt", "M agent")
	d, err := app.FileDiff("src/a.txt")
	if err != nil || !strings.Contains(d.Diff, "-old\n+new\n") {
		t.Fatalf("FileDiff: %+v %v", d, err)
	}

	// A file created outside: added, from outside, with its whole content as
	// the diff.
	if err := os.WriteFile(filepath.Join(ws, "src/b.txt"), []byte("b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitChanged(t, app, "src/b.txt", "A outside")
	if d, err := app.FileDiff("src/b.txt"); err != nil || !strings.Contains(d.Diff, "+b\n") {
		t.Fatalf("FileDiff of an added file: %+v %v", d, err)
	}
	if _, err := app.FileDiff("README.md"); err == nil {
		t.Fatal("FileDiff of an unchanged file must fail")
	}
}

func TestOutsideChangesOfReadFilesReachTheNextRequest(t *testing.T) {
	app, ws, srv := newFilesApp(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "read_file", Arguments: llmtest.Text(`{"path":"r.txt"}`)}}},
		{Text: llmtest.Text("read it")},
		{Text: llmtest.Text("ok")},
	}}, map[string]string{"r.txt": "one\n"})
	if _, err := app.Submit(protocol.Submission{Text: "read r"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	if err := os.WriteFile(filepath.Join(ws, "r.txt"), []byte("two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitChanged(t, app, "r.txt", "M outside")
	if _, err := app.Submit(protocol.Submission{Text: "go on"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	reqs := srv.ModelRequests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	if body := string(reqs[2].Body); !strings.Contains(body, "changed on disk") || !strings.Contains(body, "r.txt") {
		t.Fatalf("the third request carries no note about r.txt:\n%s", body)
	}
	if strings.Contains(string(reqs[1].Body), "changed on disk") {
		t.Fatal("the second request came before the change")
	}
}

func TestSwitchingWorkspaceReleasesTheWatcher(t *testing.T) {
	app, _, _ := newFilesApp(t, llmtest.Script{}, map[string]string{"a/b/c.txt": "x"})
	old := app.files.Load()
	if len(old.Live().W.WatchList()) != 3 {
		t.Fatalf("watches: %v", old.Live().W.WatchList())
	}
	if err := app.setWorkspace(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	if n := len(old.Live().W.WatchList()); n != 0 {
		t.Fatalf("the old workspace keeps %d watches", n)
	}
	if app.files.Load() == old {
		t.Fatal("no new watcher")
	}
}

// The badges are of the session shown: a new session starts with none, and
// a file changed again is diffed against its content when the session began.
func TestANewSessionStartsWithoutTheOldSessionsBadges(t *testing.T) {
	app, ws, _ := newFilesApp(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "write_file", Arguments: llmtest.Text(`{"path":"a.txt","content":"two\n"}`)}}},
		{Text: llmtest.Text("done")},
	}}, map[string]string{"a.txt": "one\n"})
	if _, err := app.Submit(protocol.Submission{Text: "change a"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	waitChanged(t, app, "a.txt", "M agent")

	app.NewSession()
	if got := app.ChangedFiles(); len(got) != 0 {
		t.Fatalf("a new session shows the old one's changes: %+v", got)
	}
	if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("three\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitChanged(t, app, "a.txt", "M outside")
	if d, err := app.FileDiff("a.txt"); err != nil || !strings.Contains(d.Diff, "-two\n+three\n") {
		t.Fatalf("FileDiff against the session's start: %+v %v", d, err)
	}
}

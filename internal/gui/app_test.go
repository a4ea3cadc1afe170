package gui

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/settings"
)

func TestMain(m *testing.M) {
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "OPENAI_") {
			os.Unsetenv(k)
		}
	}
	os.Exit(m.Run())
}

// newTestApp is the bound App without a window: settings in a temp folder,
// the fake model server as its model, auto approval.
func newTestApp(t *testing.T, script llmtest.Script) (*App, string) {
	t.Helper()
	app, ws, _ := newTestAppServer(t, script)
	return app, ws
}

// newTestAppServer is newTestApp that also returns the fake model server.
func newTestAppServer(t *testing.T, script llmtest.Script) (*App, string, *llmtest.Server) {
	t.Helper()
	srv := llmtest.Start(t, script)
	app, ws := newAppIn(t, srv, filepath.Join(t.TempDir(), "config"), filepath.Join(t.TempDir(), "data"))
	return app, ws, srv
}

// newAppIn is a window whose settings are in cfg and data in data, on
// srv's model, in auto, with a new workspace folder open (returned).
func newAppIn(t *testing.T, srv *llmtest.Server, cfg, data string) (*App, string) {
	t.Helper()
	app := NewApp(time.Now(), slog.New(slog.NewTextHandler(io.Discard, nil)), settings.NewStore(cfg), settings.Flags{}, data)
	t.Cleanup(func() { app.shutdown(context.Background()) })
	if _, err := app.SaveSettings(SettingsInput{BaseURL: srv.URL, Model: "fake-model", APIKey: "sk-test"}); err != nil {
		t.Fatal(err)
	}
	if err := app.useMode("auto"); err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	if err := app.setWorkspace(ws); err != nil {
		t.Fatal(err)
	}
	return app, ws
}

// waitIdle waits for the current turn to stop. The limit is a hang guard,
// not a speed check: under the race detector on a loaded machine a turn
// over a 50,000-item history takes half a minute.
func waitIdle(t *testing.T, app *App) {
	t.Helper()
	done := make(chan struct{})
	go func() { app.currentSession().Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(120 * time.Second):
		t.Fatal("turn did not stop")
	}
}

func TestSubmitStreamsIntoTheSnapshot(t *testing.T) {
	app, _ := newTestApp(t, llmtest.Script{Responses: []llmtest.Response{{Text: llmtest.Text("Hello ", "**there**")}}})
	if st := app.State(); st.NeedsSetup || st.Model != "fake-model" {
		t.Fatalf("state %+v", st)
	}
	if _, err := app.Submit(protocol.Submission{Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	snap := app.Snapshot()
	var kinds []string
	for _, it := range snap.Transcript {
		kinds = append(kinds, string(it.Kind))
	}
	if strings.Join(kinds, ",") != "user,assistant,stop" {
		t.Fatalf("transcript kinds %v", kinds)
	}
	if snap.Transcript[1].Text != "Hello **there**" || snap.Transcript[2].Reason != protocol.StopCompleted {
		t.Fatalf("transcript %+v", snap.Transcript)
	}
	if snap.LastSeq == 0 {
		t.Error("snapshot without a seq")
	}
}

func TestSettingsKeepTheKeyPrivate(t *testing.T) {
	app, _ := newTestApp(t, llmtest.Script{})
	v := app.GetSettings()
	if !v.HasKey || v.Sources.APIKey != settings.FromSaved {
		t.Fatalf("view %+v", v)
	}
	if _, err := app.SaveSettings(SettingsInput{BaseURL: "ftp://nope", Model: "m"}); err == nil {
		t.Error("a non-http base URL was saved")
	}
	res := app.TestConnection(SettingsInput{BaseURL: "http://127.0.0.1:9/v1", Model: "fake-model"})
	if res.Status != "unreachable" {
		t.Errorf("closed port: %+v", res)
	}
}

func TestRestartRunsTheSameCommandInTheSameFolder(t *testing.T) {
	app, ws := newTestApp(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "bash", Arguments: llmtest.Text(`{"action":"start","command":"pwd; sleep 300","cwd":"sub"}`)}}},
		{Text: llmtest.Text("started")},
	}})
	if err := os.Mkdir(filepath.Join(ws, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Submit(protocol.Submission{Text: "start"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	first := app.Processes()[0]
	if _, err := app.ProcessRestart(first.ProcessID); err == nil {
		t.Fatal("a running process was restarted")
	}
	if _, err := app.ProcessStop(first.ProcessID); err != nil {
		t.Fatal(err)
	}
	again, err := app.ProcessRestart(first.ProcessID)
	if err != nil {
		t.Fatal(err)
	}
	if again.ProcessID == first.ProcessID || again.Command != first.Command || again.Cwd != first.Cwd || again.Status != protocol.StatusRunning {
		t.Fatalf("restart %+v of %+v", again, first)
	}
	if _, err := app.ProcessRestart("p-nope"); err == nil {
		t.Fatal("an unknown process was restarted")
	}
}

// The API chosen on the settings screen is saved, reported with its source,
// and used by the next turn.
func TestSettingsChooseTheResponsesAPI(t *testing.T) {
	app, _, srv := newTestAppServer(t, llmtest.Script{Responses: []llmtest.Response{{Text: llmtest.Text("over ", "responses")}}})
	if v := app.GetSettings(); v.API != settings.APIChat || v.Sources.API != settings.FromDefault {
		t.Fatalf("default view %+v", v)
	}
	if _, err := app.SaveSettings(SettingsInput{BaseURL: srv.URL, Model: "fake-model", API: "v2"}); err == nil {
		t.Fatal("an unknown API was saved")
	}
	v, err := app.SaveSettings(SettingsInput{BaseURL: srv.URL, Model: "fake-model", API: settings.APIResponses})
	if err != nil || v.API != settings.APIResponses || v.Sources.API != settings.FromSaved {
		t.Fatalf("view %+v, %v", v, err)
	}
	if _, err := app.Submit(protocol.Submission{Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	reqs := srv.Requests()
	if last := reqs[len(reqs)-1]; !strings.HasSuffix(last.Path, "/v1/responses") {
		t.Fatalf("the turn asked %s", last.Path)
	}
}

// The page draws its first frame from State alone, so State carries the
// saved theme and follows a change.
func TestStateCarriesTheTheme(t *testing.T) {
	app, _, srv := newTestAppServer(t, llmtest.Script{})
	if got := app.State().Theme; got != settings.ThemeSystem {
		t.Fatalf("default theme %q", got)
	}
	if _, err := app.SaveSettings(SettingsInput{BaseURL: srv.URL, Model: "fake-model", Theme: settings.ThemeDark}); err != nil {
		t.Fatal(err)
	}
	if got := app.State().Theme; got != settings.ThemeDark {
		t.Fatalf("theme after saving dark: %q", got)
	}
}

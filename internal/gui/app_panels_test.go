package gui

import (
	"io"
	"log/slog"
	"testing"
	"time"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/settings"
)

// A dragged panel's width is in the frame's state, and in the state of the
// next run of the app on the same settings; a saved model change keeps it.
func TestPanelWidthSurvivesARestart(t *testing.T) {
	app, _ := newTestApp(t, llmtest.Script{Models: []string{"fake-model"}})
	if err := app.SetPanelWidth("processes", 520); err != nil {
		t.Fatal(err)
	}
	if err := app.SetPanelWidth("processes", 3); err == nil {
		t.Fatal("a 3 px panel was accepted")
	}
	in := SettingsInput{BaseURL: app.GetSettings().BaseURL, Model: "other-model"}
	if _, err := app.SaveSettings(in); err != nil {
		t.Fatal(err)
	}
	if w := app.State().PanelWidths["processes"]; w != 520 {
		t.Fatalf("this run: %d", w)
	}
	next := NewApp(time.Now(), slog.New(slog.NewTextHandler(io.Discard, nil)), settings.NewStore(app.store.Dir()), settings.Flags{}, "")
	if w := next.State().PanelWidths["processes"]; w != 520 {
		t.Fatalf("the next run: %d", w)
	}
}

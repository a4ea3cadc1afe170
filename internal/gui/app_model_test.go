package gui

import (
	"gatehouse/internal/protocol"

	"encoding/json"
	"slices"
	"strings"
	"testing"

	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/settings"
)

func TestListModelsAsksTheConfiguredServer(t *testing.T) {
	app, _, srv := newTestAppServer(t, llmtest.Script{Models: []string{"fake-model", "b-model", "a-model"}})
	got, err := app.ListModels()
	if err != nil || !slices.Equal(got, []string{"a-model", "b-model", "fake-model"}) {
		t.Fatalf("models %v, %v", got, err)
	}
	reqs := srv.Requests()
	if last := reqs[len(reqs)-1]; last.Method != "GET" || !strings.HasSuffix(last.Path, "/v1/models") || !last.Authorized {
		t.Fatalf("asked %+v", last)
	}

	if _, err := app.SaveSettings(SettingsInput{BaseURL: "http://127.0.0.1:9/v1", Model: "fake-model", SendKey: true}); err != nil {
		t.Fatal(err)
	}
	got, err = app.ListModels()
	if llm.KindOf(err) != llm.KindUnreachable || err.Error() != "The model server is unreachable." || got == nil {
		t.Fatalf("closed port: %v, %v", got, err)
	}
}

func TestListModelsSaysTheKeyWasRefused(t *testing.T) {
	app, _, _ := newTestAppServer(t, llmtest.Script{APIKey: "sk-other", Models: []string{"fake-model"}})
	if _, err := app.ListModels(); err == nil || err.Error() != "The model server refused the key." {
		t.Fatalf("err %v", err)
	}
}

// SetModel saves the model, the state shows it, and the next turn asks
// for it.
func TestSetModelAppliesToTheNextTurn(t *testing.T) {
	app, _, srv := newTestAppServer(t, llmtest.Script{Models: []string{"fake-model", "other-model"},
		Responses: []llmtest.Response{{Text: llmtest.Text("one")}, {Text: llmtest.Text("two")}}})
	if _, err := app.Submit(protocol.Submission{Text: "first"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	st, err := app.SetModel("other-model")
	if err != nil || st.Model != "other-model" || app.State().Model != "other-model" {
		t.Fatalf("state %+v, %v", st, err)
	}
	if v := app.GetSettings(); v.Model != "other-model" || v.Sources.Model != settings.FromSaved {
		t.Fatalf("settings %+v", v)
	}
	if saved, err := app.store.Load(); err != nil || saved.Model != "other-model" || saved.BaseURL != srv.URL {
		t.Fatalf("saved %+v, %v", saved, err)
	}
	if _, err := app.Submit(protocol.Submission{Text: "second"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	var models []string
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/chat/completions") {
			var body struct {
				Model string `json:"model"`
			}
			if err := json.Unmarshal(r.Body, &body); err != nil {
				t.Fatal(err)
			}
			models = append(models, body.Model)
		}
	}
	if !slices.Equal(models, []string{"fake-model", "other-model"}) {
		t.Fatalf("requests asked for %v", models)
	}
	if _, err := app.SetModel("  "); err == nil {
		t.Fatal("an empty model was saved")
	}
}

// While --model names the model, SetModel says so instead of saving a
// choice that would not apply.
func TestSetModelRefusesWhileAFlagNamesTheModel(t *testing.T) {
	app, _, _ := newTestAppServer(t, llmtest.Script{})
	app.flags = settings.Flags{Model: "pinned-model"}
	st, err := app.SetModel("other-model")
	if err == nil || !strings.Contains(err.Error(), "--model") || !strings.Contains(err.Error(), "pinned-model") {
		t.Fatalf("err %v", err)
	}
	if st.Model != "pinned-model" {
		t.Fatalf("state %+v", st)
	}
	if saved, _ := app.store.Load(); saved.Model != "fake-model" {
		t.Fatalf("saved model %q", saved.Model)
	}
}

// Before the first turn the gauge learns the window the next request will
// have: the server's figure when it reports one, else the saved setting.
func TestContextWindowBeforeTheFirstTurn(t *testing.T) {
	app, _, _ := newTestAppServer(t, llmtest.Script{Models: []string{"fake-model"},
		ModelMeta: map[string]map[string]any{"fake-model": {"max_model_len": 32768}}})
	if w := app.ContextWindow(); w != (llm.Window{Tokens: 32768, Source: llm.WindowServer}) {
		t.Fatalf("a server that reports it: %+v", w)
	}
	other, _, srv := newTestAppServer(t, llmtest.Script{Models: []string{"fake-model"}})
	if _, err := other.SaveSettings(SettingsInput{BaseURL: srv.URL, Model: "fake-model", Context: &settings.ContextLimits{Window: 20000}}); err != nil {
		t.Fatal(err)
	}
	if w := other.ContextWindow(); w != (llm.Window{Tokens: 20000, Source: llm.WindowSetting}) {
		t.Fatalf("from the setting: %+v", w)
	}
}

// A model switched between turns: each turn's stop carries the model that
// ran it, and Prices prices each at its own.
func TestEachTurnCarriesItsModelAndItsPrice(t *testing.T) {
	app, _, srv := newTestAppServer(t, llmtest.Script{Models: []string{"fake-model", "gpt-4o"},
		Responses: []llmtest.Response{{Text: llmtest.Text("one")}, {Text: llmtest.Text("two")}}})
	if _, err := app.SaveSettings(SettingsInput{BaseURL: srv.URL, Model: "gpt-4o", Price: &settings.Price{InputPerMTok: 2.5, OutputPerMTok: 10}}); err != nil {
		t.Fatal(err)
	}
	if _, err := app.SaveSettings(SettingsInput{BaseURL: srv.URL, Model: "fake-model", Price: &settings.Price{InputPerMTok: 3, OutputPerMTok: 15}}); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Submit(protocol.Submission{Text: "first"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	if _, err := app.SetModel("gpt-4o"); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Submit(protocol.Submission{Text: "second"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	var models []string
	for _, it := range app.Snapshot().Transcript {
		if it.Kind == "stop" {
			models = append(models, it.Model)
		}
	}
	if !slices.Equal(models, []string{"fake-model", "gpt-4o"}) {
		t.Fatalf("the turns' models %v", models)
	}
	got := app.Prices(models)
	if len(got) != 2 || got[0].Source != settings.PriceSaved || got[0].Price.InputPerMTok != 3 ||
		got[1].Source != settings.PriceSaved || got[1].Price.InputPerMTok != 2.5 {
		t.Fatalf("prices %+v", got)
	}
}

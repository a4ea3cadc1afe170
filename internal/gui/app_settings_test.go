package gui

import (
	"gatehouse/internal/protocol"

	"errors"
	"strings"
	"testing"

	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/settings"
)

// keySent reports whether every request srv got carried a key (true) or
// none did (false); mixed fails the test.
func keySent(t *testing.T, srv *llmtest.Server) bool {
	t.Helper()
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("the server got no request")
	}
	for _, r := range reqs[1:] {
		if r.Authorized != reqs[0].Authorized {
			t.Fatalf("some requests carried a key, some did not: %+v", reqs)
		}
	}
	return reqs[0].Authorized
}

// TestConnectionSendsTheSavedKeyOnlyWhereItWasSavedFor: a connection test
// against another base URL goes without the saved key, and says so, until
// the user types a key or confirms sending the saved one.
func TestConnectionSendsTheSavedKeyOnlyWhereItWasSavedFor(t *testing.T) {
	app, _, saved := newTestAppServer(t, llmtest.Script{Models: []string{"fake-model"}})
	if r := app.TestConnection(SettingsInput{BaseURL: saved.URL + "/", Model: "fake-model"}); r.Status != llm.Reachable || !keySent(t, saved) {
		t.Fatalf("its own server: %+v", r)
	}

	other := llmtest.Start(t, llmtest.Script{Models: []string{"fake-model"}, APIKey: "sk-test"})
	r := app.TestConnection(SettingsInput{BaseURL: other.URL, Model: "fake-model"})
	if r.Status != llm.KeyRejected || !strings.Contains(r.Message, "none was sent: the saved key is kept for "+saved.URL) {
		t.Fatalf("another server: %+v", r)
	}
	if keySent(t, other) {
		t.Fatal("the saved key went to another server")
	}

	confirmed := llmtest.Start(t, llmtest.Script{Models: []string{"fake-model"}, APIKey: "sk-test"})
	if r := app.TestConnection(SettingsInput{BaseURL: confirmed.URL, Model: "fake-model", SendKey: true}); r.Status != llm.Reachable || !keySent(t, confirmed) {
		t.Fatalf("confirmed: %+v", r)
	}

	typed := llmtest.Start(t, llmtest.Script{Models: []string{"fake-model"}, APIKey: "sk-typed"})
	if r := app.TestConnection(SettingsInput{BaseURL: typed.URL, Model: "fake-model", APIKey: "sk-typed"}); r.Status != llm.Reachable {
		t.Fatalf("typed key: %+v", r)
	}

	open := llmtest.Start(t, llmtest.Script{Models: []string{"fake-model"}})
	r = app.TestConnection(SettingsInput{BaseURL: open.URL, Model: "fake-model"})
	if r.Status != llm.Reachable || !strings.Contains(r.Message, "No key was sent") || keySent(t, open) {
		t.Fatalf("a server that needs no key: %+v", r)
	}
}

// TestSavingAnotherBaseURLKeepsTheKeyOnlyWhenConfirmed: saving a new base URL
// with the saved key kept is refused (nothing changes) until the user types
// a key, removes the saved one, or confirms the saved key goes there too.
func TestSavingAnotherBaseURLKeepsTheKeyOnlyWhenConfirmed(t *testing.T) {
	app, _, saved := newTestAppServer(t, llmtest.Script{})
	other := "https://elsewhere.example/v1"
	if _, err := app.SaveSettings(SettingsInput{BaseURL: other, Model: "fake-model"}); err == nil || !strings.Contains(err.Error(), "the saved key is kept for "+saved.URL) {
		t.Fatalf("saved without confirming: %v", err)
	}
	if v := app.GetSettings(); v.BaseURL != saved.URL || !v.HasKey {
		t.Fatalf("a refused save changed the settings: %+v", v)
	}
	if _, err := app.SaveSettings(SettingsInput{BaseURL: saved.URL + "/", Model: "other-model"}); err != nil {
		t.Fatalf("the same server: %v", err)
	}
	if v, err := app.SaveSettings(SettingsInput{BaseURL: other, Model: "fake-model", SendKey: true}); err != nil || v.BaseURL != other || !v.HasKey {
		t.Fatalf("confirmed: %+v, %v", v, err)
	}
	if v, err := app.SaveSettings(SettingsInput{BaseURL: saved.URL, Model: "fake-model", ClearKey: true}); err != nil || v.HasKey {
		t.Fatalf("the key removed: %+v, %v", v, err)
	}
}

// The settings screen saves a price for the model it names; the view says
// the price in effect and where it comes from.
func TestSettingsSaveAModelsPrice(t *testing.T) {
	app, _, srv := newTestAppServer(t, llmtest.Script{})
	in := SettingsInput{BaseURL: srv.URL, Model: "fake-model"}
	v, err := app.SaveSettings(in)
	if err != nil || v.PriceSource != settings.PriceLocal || v.Price != (settings.Price{}) {
		t.Fatalf("a local server: %+v %v", v, err)
	}
	in.Price = &settings.Price{InputPerMTok: 3, OutputPerMTok: 15}
	if v, err = app.SaveSettings(in); err != nil || v.PriceSource != settings.PriceSaved || v.Price != *in.Price {
		t.Fatalf("saved: %+v %v", v, err)
	}
	if v := app.GetSettings(); v.Price != *in.Price {
		t.Fatalf("read back: %+v", v)
	}
	in.Price = &settings.Price{InputPerMTok: -1}
	if _, err := app.SaveSettings(in); err == nil {
		t.Fatal("a negative price was saved")
	}
	in.Price, in.ClearPrice = nil, true
	if v, err = app.SaveSettings(in); err != nil || v.PriceSource != settings.PriceLocal {
		t.Fatalf("cleared: %+v %v", v, err)
	}

	// A price saved along with a new base URL: the key confirmation still
	// applies, and a refused save keeps the old price.
	in = SettingsInput{BaseURL: "https://elsewhere.example/v1", Model: "fake-model", Price: &settings.Price{InputPerMTok: 1, OutputPerMTok: 2}}
	if _, err := app.SaveSettings(in); err == nil {
		t.Fatal("saved to another base URL without confirming the key")
	}
	if v := app.GetSettings(); v.PriceSource != settings.PriceLocal {
		t.Fatalf("a refused save kept its price: %+v", v)
	}
	in.SendKey = true
	if v, err = app.SaveSettings(in); err != nil || v.PriceSource != settings.PriceSaved || v.Price != *in.Price {
		t.Fatalf("confirmed with a price: %+v %v", v, err)
	}
}

// The settings screen saves the context window and compaction thresholds
// with the rest: a bad value is refused in words naming the field and
// changes nothing, a save without them keeps them, and a session opened
// after the save uses the window (the fake server does not report one).
func TestSettingsSaveTheContextLimits(t *testing.T) {
	app, _, srv := newTestAppServer(t, llmtest.Script{Responses: []llmtest.Response{{Text: llmtest.Text("ok")}}})
	if v := app.GetSettings(); v.Context != (settings.ContextLimits{}) {
		t.Fatalf("a first run: %+v", v.Context)
	}
	in := SettingsInput{BaseURL: srv.URL, Model: "fake-model", Context: &settings.ContextLimits{Window: 50_000, MicroCompactAt: 60, CompactAt: 75}}
	if v, err := app.SaveSettings(in); err != nil || v.Context != *in.Context {
		t.Fatalf("saved: %+v %v", v.Context, err)
	}
	for _, bad := range []struct {
		c     settings.ContextLimits
		field string
	}{
		{settings.ContextLimits{Window: 64}, "window"},
		{settings.ContextLimits{MicroCompactAt: 10}, "microCompactAt"},
		{settings.ContextLimits{MicroCompactAt: 80, CompactAt: 80}, "compactAt"},
	} {
		in.Context = &bad.c
		_, err := app.SaveSettings(in)
		var fe *settings.FieldError
		if !errors.As(err, &fe) || fe.Field != bad.field {
			t.Errorf("%+v: %v, want an error at %s", bad.c, err, bad.field)
		}
	}
	// A save without them (the first-run screen's) keeps them, and the
	// price and model with them.
	if v, err := app.SaveSettings(SettingsInput{BaseURL: srv.URL, Model: "fake-model", Price: &settings.Price{InputPerMTok: 1}}); err != nil ||
		v.Context != (settings.ContextLimits{Window: 50_000, MicroCompactAt: 60, CompactAt: 75}) || v.PriceSource != settings.PriceSaved {
		t.Fatalf("kept: %+v %v", v, err)
	}
	// A save refused for the key (another base URL, not confirmed) keeps the old ones.
	if _, err := app.SaveSettings(SettingsInput{BaseURL: "https://elsewhere.example/v1", Model: "fake-model", Context: &settings.ContextLimits{}}); err == nil {
		t.Fatal("saved to another base URL without confirming the key")
	}
	if v := app.GetSettings(); v.Context.Window != 50_000 {
		t.Fatalf("a refused save changed the context settings: %+v", v.Context)
	}

	app.NewSession()
	if _, err := app.Submit(protocol.Submission{Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	tr := app.Snapshot().Transcript
	if use := tr[len(tr)-1].Context; use == nil || use.Window != 50_000 || use.WindowSource != "setting" {
		t.Fatalf("the new session's context: %+v", use)
	}
}

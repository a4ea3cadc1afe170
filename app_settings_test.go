package main

import (
	"strings"
	"testing"

	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
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
	if r.Status != llm.KeyRejected || !strings.Contains(r.Message, "your key was not sent: it is kept for "+saved.URL) {
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

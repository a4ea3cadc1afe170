package llm_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
	"time"

	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
)

func TestDetectLocal(t *testing.T) {
	ollama := llmtest.StartUnchecked(llmtest.Script{Models: []string{"llama3.2", "qwen2.5-coder"}})
	defer ollama.Close()
	empty := llmtest.StartUnchecked(llmtest.Script{}) // running, nothing loaded
	defer empty.Close()
	notAPI := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("<html>hello</html>"))
	}))
	defer notAPI.Close()
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}))
	defer slow.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()

	start := time.Now()
	got := llm.DetectLocalAt(context.Background(), []llm.LocalCandidate{
		{Name: "closed", BaseURL: closedURL + "/v1"},
		{Name: "Ollama", BaseURL: ollama.URL},
		{Name: "html", BaseURL: notAPI.URL + "/v1"},
		{Name: "slow", BaseURL: slow.URL + "/v1"},
		{Name: "LM Studio", BaseURL: empty.URL},
	}, 300*time.Millisecond)
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("detection took %v", d)
	}
	want := []llm.LocalServer{
		{Name: "Ollama", BaseURL: ollama.URL, Models: []string{"llama3.2", "qwen2.5-coder"}},
		{Name: "LM Studio", BaseURL: empty.URL, Models: []string{}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("found %+v\nwant  %+v", got, want)
	}
	if none := llm.DetectLocalAt(context.Background(), nil, time.Second); none == nil || len(none) != 0 {
		t.Errorf("no candidates: %#v", none)
	}
}

func TestLocalCandidatesAreLoopback(t *testing.T) {
	for _, c := range llm.LocalCandidates() {
		if c.BaseURL != "http://127.0.0.1:11434/v1" && c.BaseURL != "http://127.0.0.1:1234/v1" {
			t.Errorf("candidate %+v", c)
		}
	}
}

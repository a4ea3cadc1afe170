package llm

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// LocalServer is an OpenAI-compatible model server found on this machine.
type LocalServer struct {
	// Name is the program ("Ollama", "LM Studio").
	Name string `json:"name"`
	// BaseURL is what to save as the base URL.
	BaseURL string `json:"baseURL"`
	// Models are the ids the server lists; empty when it has none loaded.
	Models []string `json:"models"`
}

// LocalCandidate is a place DetectLocalAt looks for a server.
type LocalCandidate struct {
	Name    string
	BaseURL string
}

// LocalCandidates are the default loopback addresses of Ollama (11434) and
// LM Studio (1234).
func LocalCandidates() []LocalCandidate {
	return []LocalCandidate{
		{Name: "Ollama", BaseURL: "http://127.0.0.1:11434/v1"},
		{Name: "LM Studio", BaseURL: "http://127.0.0.1:1234/v1"},
	}
}

// DefaultProbeTimeout bounds each probe of DetectLocal.
const DefaultProbeTimeout = 800 * time.Millisecond

// DetectLocal looks for OpenAI-compatible servers on this machine's default
// ports (LocalCandidates).
func DetectLocal(ctx context.Context) []LocalServer {
	return DetectLocalAt(ctx, LocalCandidates(), DefaultProbeTimeout)
}

// DetectLocalAt asks each candidate for GET {BaseURL}/models, all at once,
// each within timeout, and returns those answering with a model list, in
// the candidates' order. It sends no key and ignores proxy settings.
func DetectLocalAt(ctx context.Context, candidates []LocalCandidate, timeout time.Duration) []LocalServer {
	client := &http.Client{Transport: &http.Transport{Proxy: nil}, Timeout: timeout}
	defer client.CloseIdleConnections()
	found := make([]*LocalServer, len(candidates))
	var wg sync.WaitGroup
	for i, c := range candidates {
		wg.Go(func() {
			if models, ok := probeModels(ctx, client, c.BaseURL); ok {
				found[i] = &LocalServer{Name: c.Name, BaseURL: c.BaseURL, Models: models}
			}
		})
	}
	wg.Wait()
	out := []LocalServer{}
	for _, s := range found {
		if s != nil {
			out = append(out, *s)
		}
	}
	return out
}

func probeModels(ctx context.Context, client *http.Client, baseURL string) ([]string, bool) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(baseURL, "/")+"/models", nil)
	if err != nil {
		return nil, false
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, false
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, false
	}
	var list struct {
		Data *[]struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 4<<20)).Decode(&list); err != nil || list.Data == nil {
		return nil, false
	}
	models := []string{}
	for _, m := range *list.Data {
		if m.ID != "" {
			models = append(models, m.ID)
		}
	}
	return models, true
}

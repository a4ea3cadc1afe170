package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func get(t *testing.T, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v: %s", url, err, b)
	}
}

func TestServesScriptAndReportsViolations(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "script.json")
	os.WriteFile(path, []byte(`{"models": ["fake"], "responses": []}`), 0o644)
	urlFile := filepath.Join(dir, "url")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan string, 1)
	var stdout, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"-script", path, "-url-file", urlFile}, &stdout, &stderr, ready)
	}()
	var url string
	select {
	case url = <-ready:
	case code := <-done:
		t.Fatalf("exited %d: %s", code, stderr.String())
	}
	if b, _ := os.ReadFile(urlFile); strings.TrimSpace(string(b)) != url || !strings.HasSuffix(url, "/v1") {
		t.Fatalf("url file %q, url %q", b, url)
	}
	var models struct {
		Data []struct{ ID string } `json:"data"`
	}
	get(t, url+"/models", &models)
	if len(models.Data) != 1 || models.Data[0].ID != "fake" {
		t.Fatalf("models %+v", models)
	}
	var violations []string
	get(t, strings.TrimSuffix(url, "/v1")+"/_violations", &violations)
	if violations == nil || len(violations) != 0 {
		t.Fatalf("violations %#v, want an empty array", violations)
	}
	// A chat request beyond the (empty) script is a violation.
	resp, err := http.Post(url+"/chat/completions", "application/json",
		strings.NewReader(`{"model":"fake","stream":true,"messages":[{"role":"user","content":"x"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	get(t, strings.TrimSuffix(url, "/v1")+"/_violations", &violations)
	if len(violations) != 1 {
		t.Fatalf("violations %q", violations)
	}
	var reqs []struct{ Path string }
	get(t, strings.TrimSuffix(url, "/v1")+"/_requests", &reqs)
	if len(reqs) != 2 || reqs[1].Path != "/v1/chat/completions" {
		t.Fatalf("requests %+v", reqs)
	}
	cancel()
	if code := <-done; code != 1 || !strings.Contains(stderr.String(), "beyond the script") {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
}

func TestRefusesNonLoopbackAndBadScripts(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "s.json")
	os.WriteFile(good, []byte(`{"responses": []}`), 0o644)
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"responses": [{"txt": 1}]}`), 0o644)
	for _, args := range [][]string{
		{"-script", good, "-addr", "0.0.0.0:0"},
		{"-script", bad},
		{},
	} {
		var out, errb bytes.Buffer
		if code := run(context.Background(), args, &out, &errb, nil); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
}

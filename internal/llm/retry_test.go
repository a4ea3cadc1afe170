package llm_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
)

func retrying(t *testing.T, api llm.API, baseURL string, retries int) *llm.Client {
	t.Helper()
	clearEnv(t)
	c, err := llm.New(llm.Config{API: api, BaseURL: baseURL, APIKey: "sk-test", Model: "fake-model", MaxRetries: retries})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var rateLimited = &llmtest.APIError{Status: 429, Code: "rate_limit_exceeded", Type: "requests", Message: "Rate limit reached."}

// A 429 before the stream is retried with backoff; the retry succeeds.
func TestRateLimitIsRetried(t *testing.T) {
	bothAPIs(t, func(t *testing.T, api llm.API) {
		srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
			{Error: rateLimited},
			{Text: llmtest.Text("ok")},
		}})
		resp, err := retrying(t, api, srv.URL, llm.DefaultMaxRetries).Stream(context.Background(),
			llm.Request{Messages: []llm.Message{llm.User("hi")}}, nil)
		if err != nil || resp.Message.Text != "ok" {
			t.Fatalf("resp %+v err %v", resp, err)
		}
		if n := len(srv.Requests()); n != 2 {
			t.Errorf("%d requests, want 2", n)
		}
	})
}

// After the last retry the error is a readable *llm.Error saying how often
// the request was tried.
func TestRetriesAreBounded(t *testing.T) {
	bothAPIs(t, func(t *testing.T, api llm.API) {
		srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
			{Error: rateLimited}, {Error: rateLimited}, {Error: rateLimited},
		}})
		_, err := retrying(t, api, srv.URL, 2).Stream(context.Background(), llm.Request{Messages: []llm.Message{llm.User("hi")}}, nil)
		var e *llm.Error
		if !errors.As(err, &e) || e.Kind != llm.KindRateLimited || !e.Retryable() || e.Status != 429 {
			t.Fatalf("error %#v", err)
		}
		if !strings.Contains(e.Error(), "rate limiting") || !strings.Contains(e.Error(), "tried 3 times") {
			t.Errorf("message %q", e.Error())
		}
		if n := len(srv.Requests()); n != 3 {
			t.Errorf("%d requests, want 3", n)
		}
	})
}

// Without retries the message claims none.
func TestNoRetriesNoClaim(t *testing.T) {
	bothAPIs(t, func(t *testing.T, api llm.API) {
		srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Error: rateLimited}}})
		_, err := retrying(t, api, srv.URL, 0).Stream(context.Background(), llm.Request{Messages: []llm.Message{llm.User("hi")}}, nil)
		if llm.KindOf(err) != llm.KindRateLimited || strings.Contains(err.Error(), "tried") {
			t.Fatalf("error %v", err)
		}
	})
}

// A refused connection is retried too, then reads as unreachable.
func TestNetworkErrorsAreRetried(t *testing.T) {
	bothAPIs(t, func(t *testing.T, api llm.API) {
		srv := llmtest.StartUnchecked(llmtest.Script{})
		url := srv.URL
		srv.Close()
		_, err := retrying(t, api, url, 1).Stream(context.Background(), llm.Request{Messages: []llm.Message{llm.User("hi")}}, nil)
		if llm.KindOf(err) != llm.KindUnreachable || !strings.Contains(err.Error(), "tried 2 times") {
			t.Fatalf("error %v", err)
		}
	})
}

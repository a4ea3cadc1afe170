package llmtest

import (
	"net/http"
	"strings"
	"testing"
)

// The server flags reasoning items OpenAI would refuse with store false:
// one whose encrypted_content is not what the server sent for its id, and
// one with no message or function call after it.
func TestReasoningItemsAreChecked(t *testing.T) {
	srv := StartUnchecked(Script{Responses: []Response{
		{Reasoning: []Reasoning{{Encrypted: "enc-A"}}, Text: Text("ok")}, {Text: Text("ok")}, {Text: Text("ok")}}})
	defer srv.Close()
	post := func(body string) {
		t.Helper()
		resp, err := http.Post(srv.URL+"/responses", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	post(`{"model": "m", "stream": true, "include": ["reasoning.encrypted_content"], "input": [{"role": "user", "content": "hi"}]}`)
	if v := srv.Violations(); len(v) != 0 {
		t.Fatalf("violations %q", v)
	}
	post(`{"model": "m", "stream": true, "input": [{"role": "user", "content": "hi"},
		{"type": "reasoning", "id": "rs_llmtest_0_0", "summary": [], "encrypted_content": "enc-A"},
		{"role": "assistant", "content": "ok"}]}`)
	if v := srv.Violations(); len(v) != 0 {
		t.Fatalf("violations %q", v)
	}
	post(`{"model": "m", "stream": true, "input": [{"role": "user", "content": "hi"},
		{"type": "reasoning", "id": "rs_llmtest_0_0", "summary": [], "encrypted_content": "enc-B"}]}`)
	v := srv.Violations()
	if len(v) != 2 || !strings.Contains(v[0], "encrypted_content") || !strings.Contains(v[1], "not followed") {
		t.Fatalf("violations %q", v)
	}
}

// Reasoning items stream first, their encrypted_content only when the
// request asked for it.
func TestReasoningEvents(t *testing.T) {
	r := Response{Reasoning: []Reasoning{{Encrypted: "enc-A", Summary: "s"}}, Text: Text("ok")}
	for _, include := range []bool{true, false} {
		events, output := responseEvents(3, r, include)
		done := events[1]["item"].(map[string]any)
		if events[0]["type"] != "response.output_item.added" || events[1]["type"] != "response.output_item.done" ||
			done["id"] != "rs_llmtest_3_0" || output[0].(map[string]any)["type"] != "reasoning" {
			t.Fatalf("events %v", events[:2])
		}
		if _, has := done["encrypted_content"]; has != include {
			t.Errorf("include %v: item %v", include, done)
		}
	}
}

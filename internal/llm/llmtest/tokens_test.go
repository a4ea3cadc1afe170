package llmtest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func post(t *testing.T, url, body string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v map[string]any
	if resp.Header.Get("Content-Type") == "application/json" {
		json.NewDecoder(resp.Body).Decode(&v)
	}
	return resp.StatusCode, v
}

func TestCountsPromptTokensAndRefusesPastTheWindow(t *testing.T) {
	srv := Start(t, Script{ContextWindow: 1000, Responses: []Response{{Text: Text("ok")}}})
	big := strings.Repeat("x", 3000) // 3,000 bytes: 750 tokens at four bytes a token
	status, body := post(t, srv.URL+"/chat/completions",
		`{"model":"m","stream":true,"messages":[{"role":"user","content":"`+big+`"}]}`)
	if status != 400 {
		t.Fatalf("status %d, want 400", status)
	}
	e, _ := body["error"].(map[string]any)
	if e["code"] != "context_length_exceeded" || !strings.Contains(e["message"].(string), "maximum context length is 1000 tokens") {
		t.Fatalf("error %v", e)
	}
	status, _ = post(t, srv.URL+"/chat/completions",
		`{"model":"m","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"`+big[:2000]+`"}]}`)
	if status != 200 {
		t.Fatalf("status %d", status)
	}
	reqs := srv.Requests()
	if !reqs[0].Refused || reqs[0].Response != -1 {
		t.Errorf("first request %+v: want refused, no response taken", reqs[0])
	}
	// bytes/3 plus keys and per-message overhead: more than a bytes/4
	// estimate of the text would say.
	if n := reqs[0].PromptTokens; n <= 3000/3 {
		t.Errorf("counted %d tokens for 3,000 bytes, want more than 1,000", n)
	}
	if n := reqs[1].PromptTokens; n <= 2000/3 || n > 1000 || reqs[1].Refused {
		t.Errorf("second request: %+v", reqs[1])
	}
}

func TestModelMetaJoinsTheListing(t *testing.T) {
	srv := Start(t, Script{Models: []string{"a", "b"},
		ModelMeta: map[string]map[string]any{"a": {"max_model_len": 32768}}})
	resp, err := http.Get(srv.URL + "/models")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list struct {
		Data []map[string]any `json:"data"`
	}
	json.NewDecoder(resp.Body).Decode(&list)
	if len(list.Data) != 2 || list.Data[0]["max_model_len"] != 32768.0 || list.Data[1]["max_model_len"] != nil {
		t.Fatalf("listing %v", list.Data)
	}
}

// A rule answers any request whose last message matches, as often as it
// comes, out of the scripted sequence.
func TestRulesAnswerOutOfTurn(t *testing.T) {
	srv := Start(t, Script{Responses: []Response{{Text: Text("first")}},
		When: []Rule{{LastContains: "summarize", Response: Response{Text: Text("a summary")}}}})
	for _, body := range []string{
		`{"model":"m","stream":true,"messages":[{"role":"user","content":"please summarize"}]}`,
		`{"model":"m","stream":true,"input":[{"role":"user","content":"summarize again"}]}`,
		`{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`,
	} {
		path := "/chat/completions"
		if strings.Contains(body, `"input"`) {
			path = "/responses"
		}
		if status, _ := post(t, srv.URL+path, body); status != 200 {
			t.Fatalf("status %d", status)
		}
	}
	reqs := srv.Requests()
	if reqs[0].Rule != 1 || reqs[1].Rule != 1 || reqs[2].Rule != 0 || reqs[2].Response != 0 {
		t.Fatalf("requests %+v", reqs)
	}
}

// A model named in ByModel follows its own list whatever order the requests
// of several models come in, When's rules included; the others take When's
// and Responses; one beyond its list is a violation.
func TestByModelKeepsEachModelsOrder(t *testing.T) {
	srv := Start(t, Script{Responses: []Response{{Text: Text("lead 1")}},
		When:    []Rule{{LastContains: "wake", Response: Response{Text: Text("lead woken")}}},
		ByModel: map[string][]Response{"a": {{Text: Text("a 1")}, {Text: Text("a 2")}}, "b": {{Text: Text("b 1")}}}})
	var got []string
	for i, model := range []string{"a", "lead", "b", "a", "lead", "lead"} {
		say := "hi"
		if i >= 3 {
			say = "wake up"
		}
		resp, err := http.Post(srv.URL+"/chat/completions", "application/json",
			strings.NewReader(`{"model":"`+model+`","stream":true,"messages":[{"role":"user","content":"`+say+`"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("%s: status %d", model, resp.StatusCode)
		}
		var text strings.Builder
		for _, line := range strings.Split(string(body), "\n") {
			if i := strings.Index(line, `"content":"`); i >= 0 {
				text.WriteString(strings.SplitN(line[i+len(`"content":"`):], `"`, 2)[0])
			}
		}
		got = append(got, text.String())
	}
	if want := "a 1|lead 1|b 1|a 2|lead woken|lead woken"; strings.Join(got, "|") != want {
		t.Fatalf("answers %q, want %q", strings.Join(got, "|"), want)
	}
	if v := srv.Violations(); len(v) != 0 {
		t.Fatalf("violations %v", v)
	}
	// Beyond its list (a bare handler: Start fails the test on a violation).
	h := NewHandler(Script{ByModel: map[string][]Response{"b": {{Text: Text("b 1")}}}})
	bare := httptest.NewServer(h)
	defer bare.Close()
	for i, want := range []int{200, 500} {
		if status, _ := post(t, bare.URL+"/chat/completions", `{"model":"b","stream":true,"messages":[{"role":"user","content":"hi"}]}`); status != want {
			t.Fatalf("request %d: status %d, want %d", i, status, want)
		}
	}
	if v := h.Violations(); len(v) != 1 || !strings.Contains(v[0], "for b beyond its script") {
		t.Fatalf("violations %v", v)
	}
}

package llmtest

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseScriptIsStrict(t *testing.T) {
	for _, bad := range []string{
		`{"responses": [{"txt": "typo"}]}`,
		`{"responses": [{"text": 5}]}`,
		`{"responses": [{"toolCalls": [{"name": "x", "arguments": "{}"}]}]}`,
		`{"responses": [{"text": "x", "error": {"status": 500, "message": "m"}}]}`,
	} {
		if _, err := ParseScript([]byte(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

func TestFragments(t *testing.T) {
	s, err := ParseScript([]byte(`{"responses": [{"text": "Hello **there**  friend"}, {"text": ["a b", "c"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Responses[0].Text.textChunks(); !reflect.DeepEqual(got, []string{"Hello ", "**there**  ", "friend"}) {
		t.Errorf("string split %q", got)
	}
	if got := s.Responses[1].Text.textChunks(); !reflect.DeepEqual(got, []string{"a b", "c"}) {
		t.Errorf("array kept %q", got)
	}
	if s.Responses[0].Text.String() != "Hello **there**  friend" {
		t.Error("String")
	}
}

func TestInterleavedChunks(t *testing.T) {
	r := Response{Interleave: true, ToolCalls: []ToolCall{
		{ID: "a", Name: "x", Arguments: Text("1", "2")},
		{ID: "b", Name: "y", Arguments: Text("3")},
	}}
	var order []string
	for _, c := range contentChunks(r)[1:] {
		tc := c.Delta.ToolCalls[0]
		order = append(order, strings.TrimSpace(tc.ID+tc.Function.Name+tc.Function.Arguments)+string(rune('0'+tc.Index)))
	}
	want := []string{"ax0", "by1", "10", "31", "20"}
	if !reflect.DeepEqual(order, want) {
		t.Fatalf("order %q, want %q", order, want)
	}
}

// The scripts the end-to-end tests use stay valid.
func TestTestdataScriptsParse(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	if len(paths) == 0 {
		t.Fatal("no scripts in testdata")
	}
	for _, p := range paths {
		if _, err := LoadScript(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

package settings

import (
	"math"
	"path/filepath"
	"testing"
)

func TestPriceOf(t *testing.T) {
	cases := []struct {
		name   string
		s      Settings
		want   Price
		source string
	}{
		{"a listed model on OpenAI", Settings{BaseURL: DefaultBaseURL, Model: "gpt-4o-mini"}, Price{0.15, 0.60}, PriceBuiltIn},
		{"a dated snapshot of a listed model", Settings{BaseURL: DefaultBaseURL, Model: "gpt-4o-2024-08-06"}, Price{2.50, 10}, PriceBuiltIn},
		{"the longest listed name wins", Settings{BaseURL: DefaultBaseURL, Model: "gpt-4.1-mini-2025-04-14"}, Price{0.40, 1.60}, PriceBuiltIn},
		{"an unknown model", Settings{BaseURL: DefaultBaseURL, Model: "my-finetune"}, Price{}, PriceUnknown},
		{"Ollama on this machine", Settings{BaseURL: "http://127.0.0.1:11434/v1", Model: "gpt-4o"}, Price{}, PriceLocal},
		{"localhost", Settings{BaseURL: "http://localhost:1234/v1", Model: "qwen"}, Price{}, PriceLocal},
		{"a server on the local network", Settings{BaseURL: "http://192.168.1.20:8000/v1", Model: "llama"}, Price{}, PriceLocal},
		{"a saved price wins over local", Settings{BaseURL: "http://127.0.0.1:9/v1", Model: "m", Prices: map[string]Price{"m": {1, 2}}}, Price{1, 2}, PriceSaved},
		{"a saved price wins over the list", Settings{BaseURL: DefaultBaseURL, Model: "gpt-4o", Prices: map[string]Price{"gpt-4o": {1.25, 5}}}, Price{1.25, 5}, PriceSaved},
		{"a saved price of another model does not apply", Settings{BaseURL: DefaultBaseURL, Model: "gpt-4o", Prices: map[string]Price{"x": {1, 1}}}, Price{2.50, 10}, PriceBuiltIn},
	}
	for _, c := range cases {
		p, src := c.s.PriceOf()
		if p != c.want || src != c.source {
			t.Errorf("%s: %v %q, want %v %q", c.name, p, src, c.want, c.source)
		}
	}
}

func TestPricesAreSavedAndValidated(t *testing.T) {
	st := NewStore(filepath.Join(t.TempDir(), "gh"))
	s := Defaults()
	s.Prices = map[string]Price{"fake-model": {3, 15}}
	if err := st.Save(s); err != nil {
		t.Fatal(err)
	}
	back, err := st.Load()
	if err != nil || back.Prices["fake-model"] != (Price{3, 15}) {
		t.Fatalf("loaded %+v %v", back.Prices, err)
	}
	for _, bad := range []Price{{-1, 0}, {0, math.NaN()}, {math.Inf(1), 1}} {
		s.Prices = map[string]Price{"m": bad}
		if s.Validate() == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}

func TestSetPrice(t *testing.T) {
	old := map[string]Price{"a": {1, 1}}
	got := SetPrice(old, "b", &Price{2, 3}, false)
	if len(got) != 2 || got["b"] != (Price{2, 3}) || len(old) != 1 {
		t.Errorf("set: %v (old %v)", got, old)
	}
	if got := SetPrice(got, "a", nil, true); len(got) != 1 || got["b"] != (Price{2, 3}) {
		t.Errorf("clear: %v", got)
	}
	if got := SetPrice(old, "a", nil, false); got["a"] != (Price{1, 1}) {
		t.Errorf("keep: %v", got)
	}
	if got := SetPrice(old, "a", nil, true); got != nil {
		t.Errorf("clear the last: %v", got)
	}
}

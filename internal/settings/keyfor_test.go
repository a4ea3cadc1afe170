package settings

import (
	"strings"
	"testing"
)

func TestKeyGoesOnlyWhereItWasSavedFor(t *testing.T) {
	eff := Effective{Settings: Settings{BaseURL: "https://api.example.com/v1"}, APIKey: NewAPIKey(secret)}
	cases := []struct {
		name     string
		req      KeyRequest
		want     string
		withheld bool
	}{
		{"its own server", KeyRequest{BaseURL: "https://api.example.com/v1"}, secret, false},
		{"its own server, spelled otherwise", KeyRequest{BaseURL: " HTTPS://API.example.com:443/v1/ "}, secret, false},
		{"another server", KeyRequest{BaseURL: "https://evil.example.net/v1"}, "", true},
		{"another path on the same host", KeyRequest{BaseURL: "https://api.example.com/other/v1"}, "", true},
		{"plain http to the same host", KeyRequest{BaseURL: "http://api.example.com/v1"}, "", true},
		{"another port", KeyRequest{BaseURL: "https://api.example.com:8443/v1"}, "", true},
		{"not a URL", KeyRequest{BaseURL: "::"}, "", true},
		{"another server, confirmed", KeyRequest{BaseURL: "https://evil.example.net/v1", SendToOther: true}, secret, false},
		{"another server, a typed key", KeyRequest{BaseURL: "https://other.example.net/v1", Typed: " sk-other "}, "sk-other", false},
		{"the key being removed", KeyRequest{BaseURL: "https://api.example.com/v1", Clear: true}, "", false},
	}
	for _, c := range cases {
		key, withheld := eff.KeyFor(c.req)
		if key.Reveal() != c.want || (withheld != nil) != c.withheld {
			t.Errorf("%s: key %q, withheld %v", c.name, key.Reveal(), withheld)
		}
		if withheld != nil && (!strings.Contains(withheld.Error(), "kept for https://api.example.com/v1") || strings.Contains(withheld.Error(), secret)) {
			t.Errorf("%s: %v", c.name, withheld)
		}
	}
	if key, withheld := (Effective{Settings: Settings{BaseURL: "https://api.example.com/v1"}}).KeyFor(KeyRequest{BaseURL: "http://localhost:11434/v1"}); key.IsSet() || withheld != nil {
		t.Errorf("no key in effect: %q, %v", key.Reveal(), withheld)
	}
}

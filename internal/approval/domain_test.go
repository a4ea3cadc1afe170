package approval

import (
	"testing"

	"gatehouse/internal/protocol"
)

// A web_fetch domain rule covers exactly its domain, and never stands in
// for a rule over the whole tool.
func TestDomainRulesAreExact(t *testing.T) {
	rs := NewRules(nil)
	p := proposal("web_fetch", keys{kind: keyDomain, items: []string{"docs.example.com"}})
	if p == nil || p.Domain != "docs.example.com" {
		t.Fatalf("proposal %+v", p)
	}
	rs.Add(*p)
	covered := func(domain string) bool {
		return rs.covering("web_fetch", keys{kind: keyDomain, items: []string{domain}}) != nil
	}
	if !covered("docs.example.com") {
		t.Fatal("the rule's own domain is not covered")
	}
	for _, d := range []string{"example.com", "api.docs.example.com", "docs.example.com.evil.test", "evil-docs.example.com", ""} {
		if covered(d) {
			t.Errorf("%q covered by a rule for docs.example.com", d)
		}
	}
	if rs.covering("web_fetch", keys{kind: keyTool}) != nil {
		t.Error("a domain rule covers any call of the tool")
	}
	if rs.covering("other_tool", keys{kind: keyDomain, items: []string{"docs.example.com"}}) != nil {
		t.Error("a domain rule covers another tool")
	}
	if proposal("web_fetch", keys{kind: keyDomain}) != nil {
		t.Error("a rule proposed without a domain")
	}
	rs.Add(protocol.Rule{Tool: "web_fetch", Summary: "any"})
	if rs.covering("web_fetch", keys{kind: keyDomain, items: []string{"other.test"}}) != nil {
		t.Error("a rule without a domain covers a domain")
	}
}

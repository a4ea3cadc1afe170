package policy

import (
	"strings"
	"testing"

	"gatehouse/internal/approval"
)

// TestDomainRulesLoadAndDecideExactly: a web_fetch rule's domain is exact
// (example.com covers neither docs.example.com nor example.com.evil.net);
// "*.example.com" covers the names below only, as the network allow-list
// reads it; deny and ask rules with a domain touch that domain only; the
// examples are URLs; a bad domain refuses the file with its line.
func TestDomainRulesLoadAndDecideExactly(t *testing.T) {
	f := newFixture(t)
	write(t, f.w.UserFile(), `
[[rule]]
id = "ex"
decision = "allow"
tool = "web_fetch"
domain = "Example.COM"
match = ["https://example.com/a?b=1", "http://EXAMPLE.com:8080/"]
not_match = ["https://docs.example.com/", "https://example.com.evil.net/"]

[[rule]]
id = "below"
decision = "allow"
tool = "web_fetch"
domain = "*.docs.test"

[[rule]]
id = "no-ads"
decision = "deny"
tool = "web_fetch"
domain = "ads.docs.test"
reason = "trackers"
`)
	p := Load(f.w)
	if len(p.Errors) > 0 || len(p.Rules) != 3 {
		t.Fatalf("%+v %v", p.Rules, p.Errors)
	}
	if p.Rules[0].Domain != "example.com" || p.Rules[0].Summary != "allow: web_fetch any URL on example.com (this exact domain, not its subdomains)" {
		t.Errorf("loaded %+v", p.Rules[0])
	}
	if s := p.Rules[1].Summary; !strings.Contains(s, "the names below docs.test, not docs.test itself") {
		t.Errorf("wildcard summary %q", s)
	}
	for url, want := range map[string]approval.Verdict{
		"https://example.com/x":           approval.VerdictAllow,
		"https://EXAMPLE.com./x":          approval.VerdictAllow,
		"https://docs.example.com/":       approval.VerdictNone,
		"https://example.com.evil.net/":   approval.VerdictNone,
		"https://evilexample.com/":        approval.VerdictNone,
		"https://api.docs.test/":          approval.VerdictAllow,
		"https://docs.test/":              approval.VerdictNone,
		"https://ads.docs.test/":          approval.VerdictDeny,
		"https://user@other.net/":         approval.VerdictNone,
		"ftp://example.com/":              approval.VerdictNone,
		"https://example.com@evil.net/":   approval.VerdictNone,
		"https://evil.net/?example.com":   approval.VerdictNone,
		"https://evil.net/#//example.com": approval.VerdictNone,
	} {
		d := approval.CheckCall(p.Rules, f.ws, "web_fetch", url)
		if d.Verdict != want {
			t.Errorf("%s: %+v, want %q", url, d, want)
		}
	}
	if d := approval.CheckCall(p.Rules, f.ws, "web_fetch", "https://ads.docs.test/"); !strings.Contains(d.Why, "trackers") {
		t.Errorf("deny says %q", d.Why)
	}

	// The form's edit keeps the domain, and saving it unchanged changes nothing.
	n, err := WrittenOf(p.Rules[0]).New()
	if err != nil || n.Rule.Domain != "example.com" {
		t.Fatalf("edit form: %+v %v", n, err)
	}
	r, err := Replace(f.w, "ex", n)
	if err != nil || r.Domain != "example.com" || r.ID != "ex" {
		t.Fatalf("replaced %+v %v", r, err)
	}
	if d := approval.CheckCall(Load(f.w).Rules, f.ws, "web_fetch", "https://docs.example.com/"); d.Verdict != approval.VerdictNone {
		t.Fatalf("after an edit: %+v", d)
	}

	// A deny (or ask) of the whole tool touches every URL.
	write(t, f.w.UserFile(), "[[rule]]\ndecision = \"deny\"\ntool = \"web_fetch\"\n")
	if d := approval.CheckCall(Load(f.w).Rules, f.ws, "web_fetch", "https://example.com/"); d.Verdict != approval.VerdictDeny {
		t.Fatalf("a whole-tool deny: %+v", d)
	}

	good := "[[rule]]\nid = \"a\"\ndecision = \"allow\"\ntool = \"bash\"\ncommands = [\"ls\"]\n"
	for _, c := range []struct{ text, want string }{
		{"\n[[rule]]\ndecision = \"allow\"\ntool = \"web_fetch\"\ndomain = \"https://example.com/\"\n", "not a domain"},
		{"\n[[rule]]\ndecision = \"allow\"\ntool = \"web_fetch\"\ndomain = \"example.com:443\"\n", "not a domain"},
		{"\n[[rule]]\ndecision = \"allow\"\ntool = \"web_fetch\"\ndomain = \"*\"\n", "not a domain"},
		{"\n[[rule]]\ndecision = \"allow\"\ntool = \"web_fetch\"\ndomain = \"ex*.com\"\n", "not a domain"},
		{"\n[[rule]]\ndecision = \"allow\"\ntool = \"bash\"\ndomain = \"example.com\"\n", "for web_fetch rules"},
		{"\n[[rule]]\ndecision = \"allow\"\ntool = \"web_fetch\"\n", "names its domain"},
		{"\n[[rule]]\ndecision = \"deny\"\ntool = \"web_fetch\"\ndomain = \"example.com\"\nfiles = [\"a\"]\n", "no commands, files"},
		{"\n[[rule]]\ndecision = \"allow\"\ntool = \"web_fetch\"\ndomain = \"example.com\"\nmatch = [\"example.com\"]\n", "http or https URLs"},
		{"\n[[rule]]\ndecision = \"allow\"\ntool = \"web_fetch\"\ndomain = \"example.com\"\nmatch = [\"https://docs.example.com/\"]\n", "match example"},
	} {
		write(t, f.w.UserFile(), good+c.text)
		p := Load(f.w)
		if len(p.Rules) != 0 || len(p.Errors) != 1 || p.Errors[0].Line != 7 || !strings.Contains(p.Errors[0].Msg, c.want) {
			t.Errorf("%q: rules %+v errors %v, want line 7 and %q", c.text, p.Rules, p.Errors, c.want)
		}
	}
}

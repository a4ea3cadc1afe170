package web

import (
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// onePageMB is an HTML page of about 1 MB: the fixture's article repeated.
func onePageMB() string {
	var b strings.Builder
	b.WriteString("<!doctype html><html><head><title>Big</title></head><body><nav>menu</nav><article>")
	for b.Len() < 1<<20 {
		b.WriteString(`<h2>Section</h2><p>A paragraph of text, with commas, and <a href="/x">a link</a>, long enough to count.</p><pre><code>go test ./...</code></pre>`)
	}
	b.WriteString("</article></body></html>")
	return b.String()
}

func TestOneMegabytePageConverts(t *testing.T) {
	u, _ := url.Parse("https://example.com/big")
	_, md, err := toMarkdown(onePageMB(), u)
	if err != nil || strings.Count(md, "## Section") < 1000 || !strings.Contains(md, "[a link](https://example.com/x)") {
		t.Fatalf("err %v, %d sections", err, strings.Count(md, "## Section"))
	}
}

// BenchmarkConvertOneMegabyteHTML measures the budget: a 1 MB page
// converted (readability pass and Markdown) in at most 100 ms.
func BenchmarkConvertOneMegabyteHTML(b *testing.B) {
	page := onePageMB()
	u, _ := url.Parse("https://example.com/big")
	b.SetBytes(int64(len(page)))
	began := cpuTime()
	for b.Loop() {
		if _, _, err := toMarkdown(page, u); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-began)/1e6/float64(b.N), "cpu-ms/op")
}

// A page whose article holds more text than any call may return is
// converted up to there, from its start, and says so.
func TestLongPageIsConvertedUpToTheLargestResult(t *testing.T) {
	u, _ := url.Parse("https://example.com/big")
	_, md, cut, err := toMarkdownCut(onePageMB(), u, maxMaxChars)
	if err != nil || !cut {
		t.Fatalf("cut %v, err %v", cut, err)
	}
	if n := len([]rune(md)); n < maxMaxChars || n > 2*maxMaxChars || !strings.HasPrefix(md, "## Section") {
		t.Fatalf("%d characters converted, starting %q", n, md[:min(len(md), 40)])
	}
	if _, md, cut, _ := toMarkdownCut("<html><body><article><h1>Small</h1><p>All of it.</p></article></body></html>", u, maxMaxChars); cut || !strings.Contains(md, "All of it.") {
		t.Fatalf("a small page was cut (%v): %q", cut, md)
	}
}

func TestClipTextKeepsTheDocumentUpToTheBudget(t *testing.T) {
	doc, _ := html.Parse(strings.NewReader("<p>one</p><div><p>two</p><p>three</p></div><p>four</p>"))
	n := 5 // "one" and "tw…": the node where it runs out stays whole
	if !clipText(doc, &n) {
		t.Fatal("nothing was cut")
	}
	var b strings.Builder
	html.Render(&b, doc)
	if got := b.String(); !strings.Contains(got, "<p>two</p></div></body>") || strings.Contains(got, "three") || strings.Contains(got, "four") {
		t.Fatalf("clipped: %s", got)
	}
}

// BenchmarkParseOneMegabyteHTML is the baseline of the one above: parsing
// the same page alone (make bench-network prints the ratio).
func BenchmarkParseOneMegabyteHTML(b *testing.B) {
	page := onePageMB()
	b.SetBytes(int64(len(page)))
	began := cpuTime()
	for b.Loop() {
		if _, err := html.Parse(strings.NewReader(page)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-began)/1e6/float64(b.N), "cpu-ms/op")
}

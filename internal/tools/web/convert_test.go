package web

import (
	"net/url"
	"strings"
	"testing"
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
	for b.Loop() {
		if _, _, err := toMarkdown(page, u); err != nil {
			b.Fatal(err)
		}
	}
}

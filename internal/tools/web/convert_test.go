package web

import (
	"net/url"
	"strings"
	"testing"
	"time"
)

// onePageMB is an HTML page of about 1 MB: the fixture's article repeated.
func onePageMB() []byte {
	var b strings.Builder
	b.WriteString("<!doctype html><html><head><title>Big</title></head><body><nav>menu</nav><article>")
	for b.Len() < 1<<20 {
		b.WriteString(`<h2>Section</h2><p>A paragraph of text, with commas, and <a href="/x">a link</a>, long enough to count.</p><pre><code>go test ./...</code></pre>`)
	}
	b.WriteString("</article></body></html>")
	return []byte(b.String())
}

// The budget: a 1 MB page converted in at most 100 ms. Checked
// loosely here (the machine running tests is shared); the benchmark
// reports the real figure.
func TestOneMegabytePageConvertsInTime(t *testing.T) {
	page := onePageMB()
	u, _ := url.Parse("https://example.com/big")
	start := time.Now()
	_, md, err := toMarkdown(page, u)
	if err != nil || !strings.Contains(md, "## Section") {
		t.Fatalf("err %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("1 MB took %s", d)
	}
}

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

package web

import (
	"fmt"
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
// converted (readability pass and Markdown) in at most twice the time of
// parsing it (BenchmarkParseOneMegabyteHTML; make bench-network prints the
// ratio).
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

// A long article after long boilerplate (a sidebar of 45,000 characters
// of links) is still found, and converted from its start up to the
// largest result: readability sees enough of it.
func TestLongArticleAfterLongBoilerplateIsFound(t *testing.T) {
	u, _ := url.Parse("https://example.com/docs/guide")
	title, md, cut, err := toMarkdownCut(articleAfterSidebar(110000), u, maxMaxChars)
	if err != nil || !cut || title != "Docs" {
		t.Fatalf("cut %v, title %q, err %v", cut, title, err)
	}
	if n := len([]rune(md)); n < maxMaxChars || !strings.HasPrefix(md, "## Part 0\n") || strings.Contains(md, "Sidebar topic") ||
		!strings.Contains(md, "[a relative link](https://example.com/docs/x/0)") {
		t.Fatalf("%d characters, starting %q", n, md[:min(len(md), 80)])
	}
}

// articleAfterSidebar is a page of a sidebar of links of sidebarBytes
// bytes, then an article that makes the page 1 MB.
func articleAfterSidebar(sidebarBytes int) string {
	var b strings.Builder
	b.WriteString("<!doctype html><html><head><title>Docs</title></head><body><div class=\"sidebar\"><ul>")
	for i := 0; b.Len() < sidebarBytes; i++ {
		fmt.Fprintf(&b, `<li><a href="/topic/%d">Sidebar topic number %d</a></li>`, i, i)
	}
	b.WriteString("</ul></div><main><article>")
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, `<h2>Part %d</h2><p>A paragraph of the article, with commas, and <a href="x/%d">a relative link</a>, long enough to count as prose.</p>`, i, i)
	}
	b.WriteString("</article></main></body></html>")
	return b.String()
}

// After more boilerplate than readability reads before the article (a
// sidebar of 70,000 characters), the article is still found and converted
// from its start, up to where readability stopped reading: less than the
// largest result, and the result says the page ran past it.
func TestArticleAfterMoreBoilerplateThanReadIsCut(t *testing.T) {
	u, _ := url.Parse("https://example.com/docs/guide")
	page := articleAfterSidebar(170000)
	if n := textOf(page[:strings.Index(page, "<main>")]); n < readLimit(maxMaxChars)-maxMaxChars {
		t.Fatalf("the sidebar holds %d characters", n)
	}
	_, md, cut, err := toMarkdownCut(page, u, maxMaxChars)
	if err != nil || !cut {
		t.Fatalf("cut %v, err %v", cut, err)
	}
	if !strings.HasPrefix(md, "## Part 0\n") || strings.Contains(md, "Sidebar topic") {
		t.Fatalf("%d characters, starting %q", len(md), md[:min(len(md), 80)])
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

// textOf is how many characters of text doc holds, as clipText counts.
func textOf(doc string) int {
	node, _ := html.Parse(strings.NewReader(doc))
	n := 1 << 30
	clipText(node, &n)
	return 1<<30 - n
}

// A large page of scripts, styles and markup around little text is
// parsed whole, with no tokenizer's pass first; a page of more text than
// the budget, in any script, is cut.
func TestOnlyAPageOfMoreTextThanTheBudgetIsCut(t *testing.T) {
	var b strings.Builder
	b.WriteString("<html><head><style>" + strings.Repeat(".a > .b { color: red }\n", 10000) + "</style>")
	b.WriteString("<script>" + strings.Repeat("if (a<b && c>d) { x = '<p>' + y + '</p>' }\n", 10000) + "</script></head><body>")
	for b.Len() < 1<<20 {
		b.WriteString(`<div class="card"><svg viewBox="0 0 24 24"><path d="M12 2L2 7l10 5 10-5-10-5z"/></svg><!-- a card --><span>card</span></div>`)
	}
	b.WriteString("</body></html>")
	page := b.String()
	if n := textOf(page); n > readLimit(maxMaxChars) || mayExceed(page, readLimit(maxMaxChars)) {
		t.Fatalf("%d bytes holding %d characters of text: tokenized", len(page), n)
	}
	czech := "<p>" + strings.Repeat("Příliš žluťoučký kůň úpěl ďábelské ódy. ", 6000) + "</p><p>tail</p>"
	if n := textOf(czech); n <= readLimit(maxMaxChars) || textPrefix(czech, readLimit(maxMaxChars)) == czech {
		t.Fatalf("%d characters of text: not cut", n)
	}
}

// clipped renders doc parsed and clipped to n characters of text.
func clipped(t *testing.T, doc string, n int) string {
	t.Helper()
	node, err := html.Parse(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	clipText(node, &n)
	var b strings.Builder
	html.Render(&b, node)
	return b.String()
}

// A page is parsed only up to the text where the budget runs out: the
// prefix, parsed and clipped, is the whole page parsed and clipped, at
// every budget, whatever the page holds between its texts (entities,
// scripts with markup in strings, comments, CRLF, the newline a pre
// drops, SVG titles holding markup, text before any tag), the text of
// scripts, styles and noscripts left uncounted.
func TestTextPrefixParsesAsTheWholePageClipped(t *testing.T) {
	pages := []string{
		fixturePage,
		"<!doctype html>\n<html>\n <head>\n<title>T &amp; t</title><style>p { color: red }</style></head>\n<body><p>caf\u00e9 &lt;b&gt; &amp;&#x41;&nbsp;z</p><script>if (a < b) { document.write('<p>no</p>') }</script><!-- <p>not text</p> --><p>after</p></body></html>",
		"<p>one\r\ntwo\rthree</p><pre>\nline one\nline two</pre><textarea>\nfield</textarea><listing>\nlist</listing><PRE>\nupper</PRE><p>tail</p><Svg><TITLE>a <b>c</b></TITLE></sVG><p>end</p>",
		"  lead <b>bold</b> text<div><svg><title>a <tspan>b</tspan> c</title><style>x &amp; y</style></svg><math><mi>x</mi></math><p>next</p></div>",
		"<p>x\x00y</p><table><tr><td>cell one</td><td>cell two</td></tr></table><ul><li>a</li><li>b<li>c</ul>",
		"<svg><style>a { fill: red }</style><text>svg text</text></svg><script/>var x = '<p>not</p>';</script><p>after</p><noscript><img src=x></noscript><STYLE>p{}</STYLE><p>last</p>",
		"<html> \n <head> </head> \n <body> \n <noscript><p>off</p></noscript><template><p>tpl</p></template><p>end</p></body></html> trailing",
	}
	for i, page := range pages {
		for n := 0; n <= textOf(page)+2; n++ {
			prefix := textPrefix(page, n)
			if !strings.HasPrefix(page, prefix) {
				t.Fatalf("page %d, %d characters: %q is not a prefix", i, n, prefix)
			}
			if got, want := clipped(t, prefix, n), clipped(t, page, n); got != want {
				t.Fatalf("page %d, %d characters, prefix %q:\n got %s\nwant %s", i, n, prefix, got, want)
			}
		}
	}
	for i, page := range pages {
		counted := textOf(page)
		for n := range len(page) {
			if counted > n && !mayExceed(page, n) {
				t.Fatalf("page %d holds %d characters of text, more than %d, and was not tokenized", i, counted, n)
			}
		}
	}
	// A long page is cut: what follows the budget is not parsed.
	page := onePageMB()
	if p := textPrefix(page, readLimit(maxMaxChars)); len(p) >= len(page)*3/4 || clipped(t, p, readLimit(maxMaxChars)) != clipped(t, page, readLimit(maxMaxChars)) {
		t.Fatalf("the 1 MB page's prefix is %d bytes of %d, or parses otherwise", len(p), len(page))
	}
}

// TestLinksResolveAgainstThePage: a page readability finds no article in is
// converted whole, its links resolved as a browser resolves them: against
// the page's own address, so a sibling page keeps its folder and an anchor
// its page.
func TestLinksResolveAgainstThePage(t *testing.T) {
	u, _ := url.Parse("https://example.com/docs/guide/intro.html?v=2#top")
	_, md, err := toMarkdown(`<html><body><p><a href="setup.html">Setup</a>, <a href="#install">Install</a>, <a href="../api/">API</a>, <a href="/home">Home</a></p></body></html>`, u)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"(https://example.com/docs/guide/setup.html)", "(https://example.com/docs/guide/intro.html?v=2#install)",
		"(https://example.com/docs/api/)", "(https://example.com/home)"} {
		if !strings.Contains(md, want) {
			t.Errorf("%s missing from:\n%s", want, md)
		}
	}
}

package web

import (
	"bytes"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"codeberg.org/readeck/go-readability/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
)

// markdown is the one HTML → Markdown converter (safe for concurrent use).
var markdown = converter.NewConverter(converter.WithPlugins(base.NewBasePlugin(), commonmark.NewCommonmarkPlugin()))

// decode returns body as UTF-8, from the charset the Content-Type header
// or the document itself declares (UTF-8 when none does).
func decode(body []byte, contentType string) string {
	if r, err := charset.NewReader(bytes.NewReader(body), contentType); err == nil {
		var b bytes.Buffer
		if _, err := b.ReadFrom(r); err == nil {
			return strings.ToValidUTF8(b.String(), "\uFFFD")
		}
	}
	return strings.ToValidUTF8(string(body), "\uFFFD")
}

// page is a fetched document as the model reads it, before maxChars.
type page struct {
	FinalURL    string
	Status      int
	ContentType string
	Title       string
	Content     string
	// Truncated: the body was longer than the size cap and was cut there
	// before conversion.
	Truncated bool
	// Cut: the main content held more text than any call may return
	// (maxMaxChars), and was converted only up to there.
	Cut bool
}

// UnsupportedTypeError is a response whose type web_fetch does not read.
type UnsupportedTypeError struct{ Type string }

func (e *UnsupportedTypeError) Error() string {
	return fmt.Sprintf("the response is %s: web_fetch reads HTML, plain text and JSON only", e.Type)
}

// kind sorts a Content-Type header: "html", "text", or "" (refused). The
// media type is returned for the result; an absent header is sniffed.
func kind(header string, body []byte) (string, string) {
	mt, _, err := mime.ParseMediaType(header)
	if header == "" || err != nil {
		mt, _, _ = mime.ParseMediaType(http.DetectContentType(body))
	}
	switch {
	case mt == "text/html" || mt == "application/xhtml+xml":
		return "html", mt
	case strings.HasPrefix(mt, "text/"), mt == "application/json", strings.HasSuffix(mt, "+json"),
		mt == "application/xml", strings.HasSuffix(mt, "+xml"), mt == "application/javascript":
		return "text", mt
	}
	return "", mt
}

// toMarkdown keeps the main content of an HTML page (a readability pass)
// and converts it to Markdown, links made absolute against pageURL. A page
// readability finds no article in is converted whole.
func toMarkdown(text string, pageURL *url.URL) (title, md string, err error) {
	title, md, _, err = toMarkdownCut(text, pageURL, maxMaxChars)
	return title, md, err
}

// toMarkdownCut is toMarkdown that converts the main content only up to
// limit characters of text (Markdown is never shorter than its text, so
// no call could be given more), and reports whether it cut: the converter
// costs in proportion to what it converts, and a megabyte page's article
// is most of it.
func toMarkdownCut(text string, pageURL *url.URL, limit int) (title, md string, cut bool, err error) {
	// Readability scores the whole document, at a cost in proportion to
	// it: it sees the first readLimit characters of text, where the main
	// content of any real page starts (navigation is short). What follows
	// is not parsed at all.
	budget := readLimit(limit)
	prefix := textPrefix(text, budget)
	doc, err := html.Parse(strings.NewReader(prefix))
	if err != nil {
		return "", "", false, fmt.Errorf("parse HTML: %w", err)
	}
	title = findTitle(doc)
	// The page held more text than readability read: whatever article it
	// finds in it, the page's text ran past what any call may return.
	leftOver := clipText(doc, &budget) || len(prefix) < len(text)
	node := doc
	parser := readability.NewParser()
	// ParseAndMutate spares a copy of the page; when it finds no article
	// the page is parsed again, up to the result's limit, and converted.
	if art, err := parser.ParseAndMutate(doc, pageURL); err == nil && art.Node != nil {
		node = art.Node
		if t := art.Title(); t != "" && title == "" {
			title = t
		}
	} else if node, err = html.Parse(strings.NewReader(textPrefix(text, limit))); err != nil {
		return "", "", false, fmt.Errorf("parse HTML: %w", err)
	}
	n := limit
	cut = clipText(node, &n) || leftOver
	// Links are resolved against the page itself, not its host: "b.html"
	// on /docs/a.html is /docs/b.html, and "#sec" stays on the page.
	base := *pageURL
	base.Fragment, base.RawFragment = "", ""
	out, err := markdown.ConvertNode(node, converter.WithDomain(base.String()))
	if err != nil {
		return "", "", false, fmt.Errorf("convert HTML to Markdown: %w", err)
	}
	return title, strings.TrimSpace(string(out)), cut, nil
}

// readLimit is how much text readability sees for a result of limit
// characters: the article up to the result's limit, after as much as half
// of it again of boilerplate before it (navigation, headers, a sidebar: a
// few thousand characters on real pages, 50,000 for the largest result).
// Readability's cost, the largest of a conversion, is in proportion to it;
// an article after more boilerplate than that is still found, converted
// up to where readability stopped reading.
func readLimit(limit int) int { return limit + limit/2 }

// textPrefix returns the start of the HTML document text that holds its
// first n characters of text, as clipText counts them in the parsed
// document: up to the end of the text where they run out (the whole
// document when it holds no more). Parsed and clipped, it is the document
// parsed whole and clipped, at the cost of a tokenizer's pass over the
// part kept instead of a parse of the rest. Like clipText it leaves out
// the text of scripts, styles and noscripts; its count may fall short of
// the parsed document's, never exceed it: the text the parser drops
// (whitespace before the head, the newline that opens a pre, NULs) is not
// counted.
func textPrefix(text string, n int) string {
	if !mayExceed(text, n) {
		return text
	}
	z := html.NewTokenizer(strings.NewReader(text))
	end, started, foreign, pre := 0, false, 0, false
	skip := "" // the script, style or noscript whose text is not counted
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return text
		}
		end += len(z.Raw())
		opensPre := false
		switch tt {
		case html.StartTagToken, html.SelfClosingTagToken:
			switch name := tagName(z.Raw()); name {
			case "html":
			case "svg", "math":
				started = true
				if tt == html.StartTagToken {
					foreign++
				}
			case "pre", "listing", "textarea":
				started, opensPre = true, tt == html.StartTagToken
			default:
				started = true
				if unread(name) {
					skip = name
				}
			}
			if foreign > 0 && tt == html.StartTagToken {
				// As the parser: an SVG <title> or <style> holds markup.
				z.NextIsNotRawText()
			}
		case html.EndTagToken:
			switch name := tagName(z.Raw()); {
			case foreign > 0 && (name == "svg" || name == "math"):
				foreign--
			case name != "" && name == skip:
				skip = ""
			}
		case html.TextToken:
			if skip != "" {
				break
			}
			t := z.Text() // unescaped in place, as the parser reads it
			if pre && len(t) > 0 && t[0] == '\n' {
				t = t[1:]
			}
			if !started {
				t = bytes.TrimLeft(t, " \t\n\f\r")
			}
			if n -= utf8.RuneCount(t) - bytes.Count(t, []byte{0}); n < 0 {
				return text[:end]
			}
		}
		pre = opensPre
	}
}

// mayExceed reports whether the HTML document text may hold more than n
// characters of text as clipText counts them. It counts the bytes outside
// tags, comments, scripts and styles: more than clipText on real pages (a
// character takes a byte at least, an entity more), at a fraction of a
// tokenizer's cost. Most large pages are scripts and markup, and are
// parsed whole with no tokenizer's pass before.
func mayExceed(text string, n int) bool {
	for len(text) > n {
		lt := strings.IndexByte(text, '<')
		if lt < 0 {
			return true
		}
		if n -= lt; n < 0 {
			return true
		}
		text = text[lt:]
		closer := ">"
		switch {
		case strings.HasPrefix(text, "<!--"):
			closer = "-->"
		case len(text) > 7 && strings.EqualFold(text[:7], "<script"):
			closer = "</script"
		case len(text) > 6 && strings.EqualFold(text[:6], "<style"):
			closer = "</style"
		}
		end := strings.Index(text, closer)
		if end < 0 && closer != ">" {
			end = strings.IndexByte(text, '>')
		}
		if end < 0 {
			return false
		}
		text = text[end+len(closer):]
	}
	return false
}

// unread reports whether the text of an element of this name is not
// counted as the page's text.
func unread(name string) bool { return name == "script" || name == "style" || name == "noscript" }

// tagName is the name of the tag whose source is raw, lower-cased when it
// is one textPrefix looks for ("" for any other): the tokenizer's own
// copies every name.
func tagName(raw []byte) string {
	i := 1 // past "<"
	if i < len(raw) && raw[i] == '/' {
		i++
	}
	var name [8]byte
	n := 0
	for ; i < len(raw); i++ {
		c := raw[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == '/' || c == '>' {
			break
		}
		if n == len(name) {
			return ""
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		name[n] = c
		n++
	}
	for _, known := range [...]string{"html", "svg", "math", "pre", "listing", "textarea", "script", "style", "noscript"} {
		if string(name[:n]) == known {
			return known
		}
	}
	return ""
}

// clipText removes what follows, in document order, the node where n's
// budget of text characters runs out, and reports whether it removed
// anything. The text of scripts, styles and noscripts is not counted:
// neither readability nor the converter keeps it, and on real pages it
// can outweigh the page's text.
func clipText(node *html.Node, n *int) bool {
	switch {
	case node.Type == html.TextNode:
		*n -= utf8.RuneCountInString(node.Data)
		return false
	case node.Type == html.ElementNode && unread(node.Data):
		return false
	}
	for c := node.FirstChild; c != nil; c = c.NextSibling {
		cut := clipText(c, n)
		if *n < 0 || cut {
			for c.NextSibling != nil {
				node.RemoveChild(c.NextSibling)
			}
			return true
		}
	}
	return false
}

func findTitle(n *html.Node) string {
	if n.Type == html.ElementNode && n.Data == "title" && n.FirstChild != nil {
		return strings.TrimSpace(n.FirstChild.Data)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if t := findTitle(c); t != "" {
			return t
		}
	}
	return ""
}

// rawGitHub rewrites a GitHub file page (github.com/o/r/blob/ref/path) to
// its raw file, and reports whether it did.
func rawGitHub(u *url.URL) (*url.URL, bool) {
	if !strings.EqualFold(u.Hostname(), "github.com") && !strings.EqualFold(u.Hostname(), "www.github.com") {
		return u, false
	}
	parts := strings.SplitN(strings.TrimPrefix(u.EscapedPath(), "/"), "/", 5)
	if len(parts) < 5 || parts[2] != "blob" || parts[0] == "" || parts[1] == "" || parts[3] == "" || parts[4] == "" {
		return u, false
	}
	raw, err := url.Parse("https://raw.githubusercontent.com/" + parts[0] + "/" + parts[1] + "/" + parts[3] + "/" + parts[4])
	if err != nil {
		return u, false
	}
	return raw, true
}

package web

import (
	"bytes"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"

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
	doc, err := html.Parse(strings.NewReader(text))
	if err != nil {
		return "", "", fmt.Errorf("parse HTML: %w", err)
	}
	title = findTitle(doc)
	node := doc
	parser := readability.NewParser()
	// ParseAndMutate spares a copy of the page; when it finds no article
	// the page is parsed again and converted whole.
	if art, err := parser.ParseAndMutate(doc, pageURL); err == nil && art.Node != nil {
		node = art.Node
		if t := art.Title(); t != "" && title == "" {
			title = t
		}
	} else if node, err = html.Parse(strings.NewReader(text)); err != nil {
		return "", "", fmt.Errorf("parse HTML: %w", err)
	}
	domain := pageURL.Scheme + "://" + pageURL.Host
	out, err := markdown.ConvertNode(node, converter.WithDomain(domain))
	if err != nil {
		return "", "", fmt.Errorf("convert HTML to Markdown: %w", err)
	}
	return title, strings.TrimSpace(string(out)), nil
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

package web

import (
	"bytes"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"codeberg.org/readeck/go-readability/v2"
	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"golang.org/x/net/html"
)

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
func toMarkdown(body []byte, pageURL *url.URL) (title, md string, err error) {
	doc, err := html.Parse(bytes.NewReader(body))
	if err != nil {
		return "", "", fmt.Errorf("parse HTML: %w", err)
	}
	node := doc
	parser := readability.NewParser()
	if art, err := parser.ParseDocument(doc, pageURL); err == nil && art.Node != nil {
		node, title = art.Node, art.Title()
	}
	domain := pageURL.Scheme + "://" + pageURL.Host
	out, err := htmltomarkdown.ConvertNode(node, converter.WithDomain(domain))
	if err != nil {
		return "", "", fmt.Errorf("convert HTML to Markdown: %w", err)
	}
	if title == "" {
		title = findTitle(doc)
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

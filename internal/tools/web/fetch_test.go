package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

const fixturePage = `<!doctype html><html><head><title>Widget docs</title></head><body>
<nav><a href="/home">Home</a> | <a href="/pricing">Pricing</a> | site navigation menu</nav>
<main><article>
<h1>Installing the widget</h1>
<p>The widget turns frobs into gizmos. This paragraph is long enough for the readability pass to
keep it as the main content of the page, which it needs to be, with commas, and several sentences.
Widgets are configured with a small file, and the rest of this page explains how to write it.</p>
<h2>Configuration</h2>
<p>Write the configuration file, then run the installer; see <a href="/docs/reference">the reference</a>
for every option, and the <a href="https://other.example.org/faq">FAQ</a> for common questions.</p>
<pre><code>widget install --config widget.toml
widget run</code></pre>
<p>Another paragraph, so that the article is clearly the longest block of text on this page, and
the navigation is clearly not: readability scores paragraphs by their length and their commas.</p>
</article></main>
<footer>Copyright footer text</footer>
</body></html>`

func TestHTMLBecomesMarkdownOfTheMainContent(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(fixturePage))
	})
	o, isErr := fetch(t, reaching(t, Config{}, nil, srv), srv.URL+"/docs/install")
	if isErr {
		t.Fatalf("%+v", o)
	}
	for _, want := range []string{
		"## Configuration",
		"```\nwidget install --config widget.toml\nwidget run\n```",
		"[the reference](" + srv.URL + "/docs/reference)",
		"[FAQ](https://other.example.org/faq)",
	} {
		if !strings.Contains(o.Content, want) {
			t.Errorf("content lacks %q:\n%s", want, o.Content)
		}
	}
	if strings.Contains(o.Content, "site navigation menu") || strings.Contains(o.Content, "Copyright footer") {
		t.Errorf("navigation or footer kept:\n%s", o.Content)
	}
	if o.Title != "Widget docs" || o.ContentType != "text/html" || o.Status != 200 {
		t.Errorf("title %q type %q status %d", o.Title, o.ContentType, o.Status)
	}
	if !o.Untrusted || !strings.Contains(o.Note, "Untrusted") {
		t.Errorf("the result is not marked untrusted: %+v", o)
	}
}

func TestTextAndJSONPassThroughOtherTypesRefused(t *testing.T) {
	bodies := map[string]string{
		"/t":   "text/plain; charset=utf-8",
		"/md":  "text/markdown",
		"/j":   "application/json",
		"/pj":  "application/problem+json",
		"/png": "image/png",
		"/pdf": "application/pdf",
		"/bin": "application/octet-stream",
	}
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", bodies[r.URL.Path])
		w.Write([]byte(`{"a": "<b>not html</b>"}`))
	})
	f := reaching(t, Config{}, nil, srv)
	for _, p := range []string{"/t", "/md", "/j", "/pj"} {
		o, isErr := fetch(t, f, srv.URL+p)
		if isErr || o.Content != `{"a": "<b>not html</b>"}` {
			t.Errorf("%s: want the body as is, got %+v", p, o)
		}
	}
	for _, p := range []string{"/png", "/pdf", "/bin"} {
		o, isErr := fetch(t, f, srv.URL+p)
		if !isErr || o.Error.Code != CodeUnsupportedType || !strings.Contains(o.Error.Message, bodies[p]) {
			t.Errorf("%s: want unsupported_content_type naming %s, got %+v", p, bodies[p], o)
		}
	}
}

func TestSizeCapHoldsBeforeConversion(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte(strings.Repeat("x", 1<<20)))
	})
	o, isErr := fetch(t, reaching(t, Config{MaxBytes: 1000}, nil, srv), srv.URL, `"maxChars":100000`)
	if isErr || !o.BodyTruncated || len(o.Content) != 1000 || o.TotalChars != 1000 {
		t.Fatalf("want the body cut at 1000 bytes, got %d chars, bodyTruncated %v", len(o.Content), o.BodyTruncated)
	}
}

func TestMaxCharsCutsTheContent(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte(strings.Repeat("é", 50)))
	})
	o, _ := fetch(t, reaching(t, Config{}, nil, srv), srv.URL, `"maxChars":10`)
	if o.Content != strings.Repeat("é", 10) || !o.Truncated || o.TotalChars != 50 {
		t.Fatalf("got %+v", o.fetchResult)
	}
}

func TestTimeCapHolds(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	start := time.Now()
	o, isErr := fetch(t, reaching(t, Config{Timeout: 200 * time.Millisecond}, nil, srv), srv.URL)
	if !isErr || o.Error.Code != "timeout" {
		t.Fatalf("want timeout, got %+v", o)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("the time cap did not hold: %s", d)
	}
}

func TestHTTPErrorStatusIsAnError(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
	o, isErr := fetch(t, reaching(t, Config{}, nil, srv), srv.URL+"/missing")
	if !isErr || o.Error.Code != CodeHTTPStatus || !strings.Contains(o.Error.Message, "404") {
		t.Fatalf("got %+v", o)
	}
}

func TestCacheServesFifteenMinutes(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("page"))
	})
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	f := reaching(t, Config{}, nil, srv)
	f.cache.now = func() time.Time { return now }
	first, _ := fetch(t, f, srv.URL+"/p")
	now = now.Add(14 * time.Minute)
	second, _ := fetch(t, f, srv.URL+"/p", `"maxChars":2`)
	if first.Cached || !second.Cached || second.Content != "pa" || srv.hits.Load() != 1 {
		t.Fatalf("first %+v second %+v hits %d: want the second from cache", first.fetchResult, second.fetchResult, srv.hits.Load())
	}
	now = now.Add(2 * time.Minute)
	third, _ := fetch(t, f, srv.URL+"/p")
	if third.Cached || srv.hits.Load() != 2 {
		t.Fatalf("after 16 minutes: cached %v, hits %d: want a fresh fetch", third.Cached, srv.hits.Load())
	}
}

func TestGitHubBlobLinksFetchedRaw(t *testing.T) {
	for in, want := range map[string]string{
		"https://github.com/owner/repo/blob/main/README.md":           "https://raw.githubusercontent.com/owner/repo/main/README.md",
		"https://github.com/owner/repo/blob/v1.2.3/docs/a%20b.md":     "https://raw.githubusercontent.com/owner/repo/v1.2.3/docs/a%20b.md",
		"https://www.GitHub.com/o/r/blob/0123abc/x/y/z.go":            "https://raw.githubusercontent.com/o/r/0123abc/x/y/z.go",
		"https://github.com/owner/repo/tree/main/docs":                "",
		"https://github.com/owner/repo/issues/1":                      "",
		"https://github.com/owner/repo/blob/main":                     "",
		"https://gitlab.com/owner/repo/blob/main/README.md":           "",
		"https://github.com.evil.test/owner/repo/blob/main/README.md": "",
	} {
		u, _ := url.Parse(in)
		got, ok := rawGitHub(u)
		if want == "" {
			if ok {
				t.Errorf("%s rewritten to %s", in, got)
			}
			continue
		}
		if !ok || got.String() != want {
			t.Errorf("%s → %s, want %s", in, got, want)
		}
	}
	f := New(Config{})
	p, _, ok := f.Prepare(context.Background(), json.RawMessage(`{"url":"https://github.com/o/r/blob/main/a.md"}`))
	if !ok || p.Web.FetchURL != "https://raw.githubusercontent.com/o/r/main/a.md" || p.Web.Domain != "github.com" {
		t.Fatalf("preview %+v", p.Web)
	}
}

func TestBadURLsRefused(t *testing.T) {
	f := New(Config{})
	for _, u := range []string{"file:///etc/passwd", "ftp://example.com/x", "http://user:pw@example.com/", "http:///nohost", "gopher://x"} {
		o, isErr := fetch(t, f, u)
		if !isErr || o.Error.Code != "invalid_arguments" {
			t.Errorf("%s: %+v", u, o)
		}
	}
}

func TestDeclaredCharsetDecodedToUTF8(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/html" {
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html><head><meta charset=\"iso-8859-1\"><title>caf\xe9</title></head><body><p>cr\xe8me br\xfbl\xe9e</p></body></html>"))
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=iso-8859-1")
		w.Write([]byte("caf\xe9"))
	})
	f := reaching(t, Config{}, nil, srv)
	if o, _ := fetch(t, f, srv.URL+"/text"); o.Content != "café" {
		t.Errorf("text: %q", o.Content)
	}
	if o, _ := fetch(t, f, srv.URL+"/html"); !strings.Contains(o.Content, "crème brûlée") || o.Title != "café" {
		t.Errorf("html: title %q content %q", o.Title, o.Content)
	}
}

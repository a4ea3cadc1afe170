package export

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"gatehouse/internal/protocol"
	"gatehouse/internal/session"
)

// chromiumDOM opens url in headless Chromium, lets its script run, and
// returns the page as drawn and what Chromium logged.
func chromiumDOM(t *testing.T, url string) (dom, log string) {
	t.Helper()
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("no chromium: make installs it (APT_PACKAGES)")
	}
	cmd := exec.Command(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir="+t.TempDir(),
		"--enable-logging=stderr", "--v=0", "--disable-background-networking", "--virtual-time-budget=10000", "--dump-dom", url)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	return stdout.String(), stderr.String()
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// The HTML export is the window's own rendering of the session (the
// frontend's export renderer inlined with the session's data) in one page
// that loads nothing: a CSP of default-src 'none' allowing its one script
// and one style sheet by hash, pictures as data URLs, every secret masked.
// Opened in Chromium it draws each call as the window's tool card, folded:
// the command and who decided it by which rule (a session rule, the user's
// answer and its kind, a rejection with its note); unfolded, the patch's
// diff and the command's output. No console error, no request, and model
// text that looks like markup stays inert.
func TestExportHTMLOpensInChromiumWithoutNetwork(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	l := sample()
	// Model text that would load something if it were markup.
	l.Items[1].Text += ` <img src="` + srv.URL + `/img.png"><script>fetch("` + srv.URL + `/x")</script>`
	l.Items[0].Images = []protocol.ImageRef{{ID: "img1", MIME: "image/png", Name: "shot.png", Width: 1, Height: 1}}
	var b bytes.Buffer
	err := Write(&b, l, Options{Format: HTML, Mask: NewMasker([]string{apiKey}, []string{"MY_SECRET=" + envToken}),
		EmbedImages: true, Image: func(id string) ([]byte, string, error) { return []byte("\x89PNG\r\n\x1a\n"), "image/png", nil }})
	if err != nil {
		t.Fatal(err)
	}
	page := b.String()
	noSecrets(t, "html", page)

	// One inline style sheet and one inline script, each allowed by its
	// hash; nothing else may run or load.
	style := regexp.MustCompile(`(?s)<style>(.*?)</style>`).FindAllStringSubmatch(page, -1)
	scripts := regexp.MustCompile(`(?s)<script>(.*?)</script>`).FindAllStringSubmatch(page, -1)
	if len(style) != 1 || len(scripts) != 1 || len(scripts[0][1]) < 10000 {
		t.Fatalf("%d style sheets and %d scripts (the renderer inlined?)", len(style), len(scripts))
	}
	csp := `content="default-src 'none'; script-src ` + sha(scripts[0][1]) + `; style-src ` + sha(style[0][1]) + `; img-src data:; font-src data:; base-uri 'none'; form-action 'none'"`
	if !strings.Contains(html.UnescapeString(page), csp) {
		t.Errorf("the page's CSP is not %s\n%.600s", csp, page)
	}
	data := regexp.MustCompile(`(?s)<script type="application/json" id="gatehouse-session">(.*?)</script>`).FindStringSubmatch(page)
	if data == nil {
		t.Fatal("no session data in the page")
	}
	markup := strings.NewReplacer(scripts[0][1], "", style[0][1], "", data[1], "").Replace(page)
	if m := regexp.MustCompile(`(?i)<(link|iframe|object|img)|\ssrc=`).FindString(markup); m != "" {
		t.Errorf("the page names something to load: %s", m)
	}
	if !strings.Contains(page, `"images":{"img1":"data:image/png;base64,`) {
		t.Error("the picture is not embedded")
	}

	dir := t.TempDir()
	file := filepath.Join(dir, "s.html")
	if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	folded, log1 := chromiumDOM(t, "file://"+file)
	unfolded, log2 := chromiumDOM(t, "file://"+file+"#unfold")
	folded, unfolded = body(t, folded), body(t, unfolded)
	for _, want := range []string{
		"<h1>fix the build</h1>", `aria-label="Turn 2"`,
		`aria-label="bash npm test, done"`,                              // the command, on its card
		"ran under your rule: npm test",                                 // the rule that let it run
		"approved by the user (once)", "approved by the user (session)", // who answered, and how
		"rejected by the user: “never write keys”",
		"Patching <b>main.go</b>.", // the model's markup, as text
	} {
		if !strings.Contains(html2text(folded), want) && !strings.Contains(folded, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if !regexp.MustCompile(`<img [^>]*src="data:image/png;base64,[^>]*alt="Thumbnail of shot.png"|<img [^>]*alt="Thumbnail of shot.png"[^>]*src="data:image/png;base64,`).MatchString(folded) {
		t.Error("the picture is not shown")
	}
	if strings.Contains(folded, "ok 1 - builds") || strings.Contains(folded, "diff-add") {
		t.Error("a call's output or diff is not folded")
	}
	if !regexp.MustCompile(`diff-add[^>]*>.*?fixed\(\)`).MatchString(unfolded) || !strings.Contains(unfolded, "ok 1 - builds") {
		t.Fatalf("unfolded, the page lacks the diff or the output:\n%.3000s", unfolded)
	}
	for _, l := range strings.Split(log1+log2, "\n") {
		if strings.Contains(l, "CONSOLE") || strings.Contains(l, "Refused to") || strings.Contains(l, "Uncaught") {
			t.Errorf("console: %s", l)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the page made %d requests", n)
	}
}

// A subagent's transcript is drawn inside the card of the call that
// started it, as the window draws it, masked like the rest; a child of a
// turn left out of the export is not in the page.
func TestExportHTMLDrawsSubagentsInTheirCalls(t *testing.T) {
	l := sample()
	child := func(parent, agent, secret string) session.Record {
		return session.Record{Type: session.RecordChild, Data: raw(map[string]any{"id": "agent-" + parent, "agent": agent, "parentCallId": parent, "status": "completed",
			"items": []protocol.TranscriptItem{
				{Kind: protocol.ItemUser, TurnID: "ct", Text: "look around"},
				{Kind: protocol.ItemTool, TurnID: "ct", ID: parent + "-read", Tool: "read_file", Args: raw(map[string]string{"path": "main.go"}), Result: raw(map[string]any{"content": "package main // " + secret})},
				{Kind: protocol.ItemAssistant, TurnID: "ct", Text: "Found the bug in main.go."},
				{Kind: protocol.ItemStop, TurnID: "ct", Reason: protocol.StopCompleted},
			}})}
	}
	l.Items = append(l.Items[:2], append([]protocol.TranscriptItem{{Kind: protocol.ItemTool, TurnID: "t1", ID: "d1", Tool: "delegate_explore",
		Args: raw(map[string]string{"task": "find the bug"}), Result: raw(map[string]any{"answer": "Found the bug in main.go."})}}, l.Items[2:]...)...)
	l.Records = append(l.Records, child("d1", "explore", ghToken), child("elsewhere", "general", "other"))
	var b bytes.Buffer
	if err := Write(&b, l, Options{Format: HTML}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	noSecrets(t, "html", page)
	if strings.Contains(page, "elsewhere") {
		t.Error("a child of no exported call is in the page")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "s.html")
	if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	dom, log := chromiumDOM(t, "file://"+file)
	dom = body(t, dom)
	if !strings.Contains(dom, `aria-label="explore agent, 1 tool call, completed"`) || !strings.Contains(html2text(dom), "Found the bug in main.go.") {
		t.Fatalf("the subagent is not drawn in its call:\n%.3000s", dom)
	}
	for _, l := range strings.Split(log, "\n") {
		if strings.Contains(l, "CONSOLE") || strings.Contains(l, "Uncaught") {
			t.Errorf("console: %s", l)
		}
	}
}

var tags = regexp.MustCompile(`<[^>]*>`)

// body is the page's body as Chromium drew it (the style and data in its
// head left out).
func body(t *testing.T, dom string) string {
	t.Helper()
	_, b, ok := strings.Cut(dom, "<body>")
	if !ok {
		t.Fatalf("no body:\n%.2000s", dom)
	}
	return b
}

// html2text is the DOM's text, entities of the markup read back.
func html2text(dom string) string {
	s := tags.ReplaceAllString(dom, "")
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", `"`, "&amp;", "&").Replace(s)
}

// Without the renderer the HTML export fails, saying how to build it; it
// never writes a page that shows nothing.
func TestExportHTMLWithoutTheRendererSaysSo(t *testing.T) {
	if _, _, err := renderer(fstest.MapFS{"bundle/.gitkeep": {}}); err != ErrNoRenderer || !strings.Contains(err.Error(), "make export-renderer") {
		t.Fatalf("without a renderer: %v", err)
	}
	if _, _, err := renderer(bundle); err != nil {
		t.Fatalf("%v (the tests need it)", err)
	}
}

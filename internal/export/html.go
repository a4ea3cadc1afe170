package export

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"html/template"
	"io"
	"io/fs"
	"regexp"
	"strings"
	"time"

	"gatehouse/internal/protocol"
)

// The HTML form is the window's own rendering: the frontend's export
// renderer (frontend/src/export, built by Vite into bundle/ as one script
// and one style sheet, see the Makefile's export-renderer) inlined into
// one page with the session's data as JSON. The page loads nothing: its
// content security policy is default-src 'none', its one script and one
// style sheet allowed by hash, pictures as data URLs.
//
//go:embed all:bundle
var bundle embed.FS

// ErrNoRenderer says this program was built without the export renderer.
var ErrNoRenderer = errors.New("the HTML export's renderer is not built into this program: build it first (make export-renderer, which make build and make test run)")

// renderer is the built script and style sheet of fsys (bundle), ready to
// inline.
func renderer(fsys fs.FS) (script, style string, err error) {
	js, err1 := fs.ReadFile(fsys, "bundle/export.js")
	css, err2 := fs.ReadFile(fsys, "bundle/export.css")
	if err1 != nil || err2 != nil || len(js) == 0 {
		return "", "", ErrNoRenderer
	}
	return inlineScript(string(js)), strings.ReplaceAll(string(css), "</", `<\/`), nil
}

// scriptBreaks are what would end or confuse a script element inside its
// text: "</script", "<script" and "<!--". Written \x3C (the same string in
// a JavaScript string, template or regular expression literal, where a
// minifier leaves them) they cannot.
var scriptBreaks = regexp.MustCompile(`(?i)<(/?script|!--)`)

func inlineScript(js string) string { return scriptBreaks.ReplaceAllString(js, `\x3C$1`) }

// cspHash is a CSP source allowing exactly the inline text s.
func cspHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
{{.CSP}}
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="Gatehouse">
<title>{{.Title}}</title>
<style>{{.Style}}</style>
<script type="application/json" id="gatehouse-session">{{.Data}}</script>
</head><body><div id="root"><noscript>This exported session is drawn by its script; allow scripts for this file to read it.</noscript></div>
<script>{{.Script}}</script>
</body></html>
`))

// pageData is what the renderer draws (frontend/src/export/ExportPage.tsx's
// ExportData).
type pageData struct {
	Meta      pageMeta          `json:"meta"`
	Turns     []pageTurn        `json:"turns"`
	Decisions map[string]string `json:"decisions,omitempty"`
	Images    map[string]string `json:"images,omitempty"`
	// Children are the subagents' transcripts by the call that started
	// each (the window's ChildrenContext).
	Children map[string]protocol.ChildTranscript `json:"children,omitempty"`
}

type pageMeta struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	Workspace string `json:"workspace"`
	Started   string `json:"started,omitempty"`
	Range     string `json:"range,omitempty"`
	Spent     string `json:"spent,omitempty"`
}

type pageTurn struct {
	N     int                       `json:"n"`
	Items []protocol.TranscriptItem `json:"items"`
}

// CSP is the page's content security policy for its script and style.
func CSP(script, style string) string {
	return "default-src 'none'; script-src " + cspHash(script) + "; style-src " + cspHash(style) +
		"; img-src data:; font-src data:; base-uri 'none'; form-action 'none'"
}

func (d *doc) html(w io.Writer) error {
	script, style, err := renderer(bundle)
	if err != nil {
		return err
	}
	title := oneLine(orDefault(d.Meta.Title, "Session "+d.Meta.ID))
	data := pageData{Meta: pageMeta{ID: d.Meta.ID, Title: title, Workspace: d.Meta.Workspace, Spent: d.total().line()},
		Turns: []pageTurn{}, Decisions: map[string]string{}, Images: map[string]string{}}
	if d.Meta.CreatedMs > 0 {
		data.Meta.Started = time.UnixMilli(d.Meta.CreatedMs).UTC().Format(time.RFC3339)
	}
	if d.opts.From > 0 {
		data.Meta.Range = toText(d.opts.From) + "–" + toText(d.opts.To)
	}
	for _, t := range d.Turns {
		data.Turns = append(data.Turns, pageTurn{N: t.N, Items: t.Items})
		for _, it := range t.Items {
			if it.Kind == protocol.ItemTool {
				if line := d.personLine(it); line != "" {
					data.Decisions[it.ID] = line
				}
			}
			for _, im := range it.Images {
				if url := d.dataURL(im); url != "" {
					data.Images[im.ID] = url
				}
			}
		}
	}
	data.Children = d.children()
	// encoding/json writes <, > and & as \u003c…: the data cannot end its
	// script element.
	b, err := json.Marshal(data)
	if err != nil {
		return err
	}
	// The policy is written as it is (its quotes unescaped, as a reader or
	// a grep expects); it holds only keywords, hashes and quotes.
	meta := template.HTML(`<meta http-equiv="Content-Security-Policy" content="` + CSP(script, style) + `">`)
	return pageTemplate.Execute(w, struct {
		Title        string
		CSP          template.HTML
		Style        template.CSS
		Data, Script template.JS
	}{title, meta, template.CSS(style), template.JS(b), template.JS(script)})
}

// personLine says who decided a call when the window's card does not: a
// person's answer in the dialog (with its kind) or a rejection; a call a
// session rule or the policy let run is said by the card itself.
func (d *doc) personLine(it protocol.TranscriptItem) string {
	if a := it.Approval; a != nil && (a.By == "rule" || a.By == "policy") {
		return ""
	}
	return d.approvalLine(it)
}

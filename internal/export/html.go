package export

import (
	"crypto/sha256"
	"encoding/base64"
	"html/template"
	"io"
	"strings"
	"time"

	"gatehouse/internal/protocol"
)

// The HTML form is one static page: no script, its one style sheet
// allowed by hash, pictures as data URLs, and a content security policy
// that allows no network at all (default-src 'none').
const pageStyle = `
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1f24;background:#fff}
h1{font-size:1.4rem}h2{font-size:1.1rem;border-bottom:1px solid #d0d7de;padding-bottom:.2rem;margin-top:2rem}
.meta{color:#57606a;font-size:.9rem}
.user{background:#f6f8fa;border-left:3px solid #0969da;padding:.5rem .8rem;white-space:pre-wrap}
.assistant{white-space:pre-wrap;padding:.3rem 0}
details{border:1px solid #d0d7de;border-radius:6px;margin:.5rem 0;padding:.3rem .6rem}
summary{cursor:pointer}summary code{font-weight:600}
.approval{color:#57606a}.rejected{color:#cf222e}.failed{color:#cf222e}
pre{background:#f6f8fa;padding:.5rem;overflow:auto;font-size:13px}
.add{color:#116329}.del{color:#82071e}
.stop{color:#57606a;font-style:italic}
img{max-width:100%}
`

var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src '{{.StyleHash}}'; img-src data:; base-uri 'none'; form-action 'none'">
<meta name="referrer" content="no-referrer">
<title>{{.Title}}</title>
<style>{{.Style}}</style>
</head><body>
<h1>{{.Title}}</h1>
<p class="meta">Session <code>{{.ID}}</code> · workspace <code>{{.Workspace}}</code>{{if .Started}} · started {{.Started}}{{end}}{{if .Range}} · turns {{.Range}}{{end}}</p>
{{range .Turns}}<section><h2>Turn {{.N}}</h2>
{{range .Entries}}{{if eq .Kind "user"}}<div class="user">{{.Text}}</div>{{range .Images}}{{if .URL}}<p><img alt="{{.Label}}" src="{{.URL}}"></p>{{else}}<p class="meta">image: {{.Label}}</p>{{end}}{{end}}
{{else if eq .Kind "assistant"}}<div class="assistant">{{.Text}}</div>
{{else if eq .Kind "tool"}}<details><summary><code>{{.Summary}}</code>{{if .Approval}} — <span class="approval{{if .Rejected}} rejected{{end}}">{{.Approval}}</span>{{end}}{{if .Failed}} — <span class="failed">failed</span>{{end}}</summary>
{{range .Blocks}}<p class="meta">{{.Label}}</p><pre>{{range .Lines}}<span class="{{.Class}}">{{.Text}}</span>
{{end}}</pre>{{end}}</details>
{{else if eq .Kind "compaction"}}<details><summary>compacted: the summary that stood in for earlier turns</summary><div class="assistant">{{.Text}}</div></details>
{{else}}<p class="stop">{{.Text}}</p>
{{end}}{{end}}</section>
{{end}}</body></html>
`))

type htmlLine struct{ Class, Text string }
type htmlBlock struct {
	Label string
	Lines []htmlLine
}
type htmlImage struct {
	Label string
	URL   template.URL
}
type htmlEntry struct {
	Kind, Text, Summary, Approval string
	Rejected, Failed              bool
	Blocks                        []htmlBlock
	Images                        []htmlImage
}
type htmlTurn struct {
	N       int
	Entries []htmlEntry
}

// StyleHash is the CSP source that allows the page's one style sheet.
func StyleHash() string {
	sum := sha256.Sum256([]byte(pageStyle))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

func (d *doc) html(w io.Writer) error {
	page := struct {
		Title, ID, Workspace, Started, Range string
		Style                                template.CSS
		StyleHash                            string
		Turns                                []htmlTurn
	}{Title: oneLine(orDefault(d.Meta.Title, "Session "+d.Meta.ID)), ID: d.Meta.ID, Workspace: d.Meta.Workspace,
		Style: template.CSS(pageStyle), StyleHash: StyleHash()}
	if d.Meta.CreatedMs > 0 {
		page.Started = time.UnixMilli(d.Meta.CreatedMs).UTC().Format(time.RFC3339)
	}
	if d.opts.From > 0 {
		page.Range = strings.TrimSpace(toText(d.opts.From) + "–" + toText(d.opts.To))
	}
	for _, t := range d.Turns {
		ht := htmlTurn{N: t.N}
		for _, it := range t.Items {
			if e, ok := d.htmlEntry(it); ok {
				ht.Entries = append(ht.Entries, e)
			}
		}
		page.Turns = append(page.Turns, ht)
	}
	return pageTemplate.Execute(w, page)
}

func (d *doc) htmlEntry(it protocol.TranscriptItem) (htmlEntry, bool) {
	switch it.Kind {
	case protocol.ItemUser:
		e := htmlEntry{Kind: "user", Text: it.Text}
		for _, im := range it.Images {
			e.Images = append(e.Images, htmlImage{Label: imageLine(im), URL: template.URL(d.dataURL(im))})
		}
		return e, true
	case protocol.ItemAssistant:
		return htmlEntry{Kind: "assistant", Text: it.Text}, strings.TrimSpace(it.Text) != ""
	case protocol.ItemTool:
		a := d.approvalLine(it)
		e := htmlEntry{Kind: "tool", Summary: callSummary(it), Approval: a, Rejected: strings.HasPrefix(a, "rejected"), Failed: it.IsError}
		for _, bl := range callBlocks(it) {
			hb := htmlBlock{Label: bl.Label}
			for _, l := range strings.Split(strings.TrimRight(bl.Text, "\n"), "\n") {
				cls := ""
				if bl.Lang == "diff" && l != "" {
					switch {
					case l[0] == '+' && !strings.HasPrefix(l, "+++"):
						cls = "add"
					case l[0] == '-' && !strings.HasPrefix(l, "---"):
						cls = "del"
					}
				}
				hb.Lines = append(hb.Lines, htmlLine{cls, l})
			}
			e.Blocks = append(e.Blocks, hb)
		}
		return e, true
	case protocol.ItemCompaction:
		return htmlEntry{Kind: "compaction", Text: it.Text}, true
	case protocol.ItemStop:
		return htmlEntry{Kind: "stop", Text: stopLine(it)}, true
	case protocol.ItemUndo:
		return htmlEntry{Kind: "stop", Text: "undo: " + firstLine(orDefault(it.Text, "files restored"))}, true
	}
	return htmlEntry{}, false
}

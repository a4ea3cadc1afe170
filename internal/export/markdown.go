package export

import (
	"encoding/base64"
	"fmt"
	"io"
	"strings"
	"time"

	"gatehouse/internal/protocol"
)

// markdown writes the export as Markdown: calls folded in <details>, as
// GitHub and most viewers show them.
func (d *doc) markdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", oneLine(orDefault(d.Meta.Title, "Session "+d.Meta.ID)))
	fmt.Fprintf(&b, "- Session: `%s`\n- Workspace: `%s`\n", d.Meta.ID, d.Meta.Workspace)
	if d.Meta.CreatedMs > 0 {
		fmt.Fprintf(&b, "- Started: %s\n", time.UnixMilli(d.Meta.CreatedMs).UTC().Format(time.RFC3339))
	}
	if d.opts.From > 0 {
		fmt.Fprintf(&b, "- Turns: %d–%s\n", d.opts.From, toText(d.opts.To))
	}
	if spent := d.total().line(); spent != "" {
		fmt.Fprintf(&b, "- Spent: %s\n", spent)
	}
	b.WriteString("\n")
	for _, t := range d.Turns {
		fmt.Fprintf(&b, "## Turn %d\n\n", t.N)
		for _, it := range t.Items {
			d.markdownItem(&b, it)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (d *doc) markdownItem(b *strings.Builder, it protocol.TranscriptItem) {
	switch it.Kind {
	case protocol.ItemUser:
		b.WriteString("**You:**\n\n" + quote(it.Text) + "\n\n")
		for _, im := range it.Images {
			if url := d.dataURL(im); url != "" {
				fmt.Fprintf(b, "![%s](%s)\n\n", mdEscape(im.Name), url)
			} else {
				fmt.Fprintf(b, "- image: %s\n\n", imageLine(im))
			}
		}
	case protocol.ItemAssistant:
		if strings.TrimSpace(it.Text) != "" {
			b.WriteString("**Assistant:**\n\n" + it.Text + "\n\n")
		}
	case protocol.ItemTool:
		summary := "<code>" + htmlText(callSummary(it)) + "</code>"
		if a := d.approvalLine(it); a != "" {
			summary += " — " + htmlText(a)
		}
		if h := hookVerdict(it); h != "" {
			summary += " — " + htmlText(h)
		}
		if it.IsError {
			summary += " — failed"
		}
		fmt.Fprintf(b, "<details><summary>%s</summary>\n\n", summary)
		for _, h := range it.Hooks {
			fmt.Fprintf(b, "- %s\n", mdEscape(hookLine(h)))
		}
		if len(it.Hooks) > 0 {
			b.WriteString("\n")
		}
		for _, bl := range callBlocks(it) {
			fence := fenceFor(bl.Text)
			fmt.Fprintf(b, "%s:\n\n%s%s\n%s\n%s\n\n", bl.Label, fence, bl.Lang, strings.TrimRight(bl.Text, "\n"), fence)
		}
		b.WriteString("</details>\n\n")
	case protocol.ItemStop:
		fmt.Fprintf(b, "_%s_\n\n", mdEscape(stopLine(it)))
	case protocol.ItemCompaction:
		fmt.Fprintf(b, "<details><summary>compacted: the summary that stood in for earlier turns</summary>\n\n%s\n\n</details>\n\n", it.Text)
	case protocol.ItemUndo:
		fmt.Fprintf(b, "_undo: %s_\n\n", mdEscape(firstLine(orDefault(it.Text, "files restored"))))
	}
}

// dataURL is a picture as a data URL when pictures are embedded and it
// can be read ("" otherwise).
func (d *doc) dataURL(im protocol.ImageRef) string {
	if !d.opts.EmbedImages || d.opts.Image == nil {
		return ""
	}
	data, mime, err := d.opts.Image(im.ID)
	if err != nil || !strings.HasPrefix(mime, "image/") {
		return ""
	}
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(data)
}

// fenceFor is a code fence longer than any run of backticks in text.
func fenceFor(text string) string {
	longest, run := 0, 0
	for _, c := range text {
		if c == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

func quote(s string) string {
	return "> " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n> ")
}

var mdEscaper = strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`, "<", "&lt;", ">", "&gt;")

func mdEscape(s string) string { return mdEscaper.Replace(s) }

var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

func htmlText(s string) string { return htmlEscaper.Replace(s) }

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func orDefault(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}

func toText(to int) string {
	if to == 0 {
		return "end"
	}
	return fmt.Sprint(to)
}

package approval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

// view is how a call is described and planned against a boundary: the
// gate's and `policy check`'s one way.
type view struct{ ws Boundary }

// describe builds the preview of a call and the keys a rule must cover.
func (g *Gate) describe(tool string, args json.RawMessage, prep *tools.Prepared, readOnly bool) (protocol.Preview, keys) {
	return view{g.c.Workspace}.describe(tool, args, prep, readOnly)
}

// describe builds the preview of a call and the keys a rule must cover.
func (g view) describe(tool string, args json.RawMessage, prep *tools.Prepared, readOnly bool) (protocol.Preview, keys) {
	p := protocol.Preview{ReadOnly: readOnly}
	switch {
	case prep != nil && len(prep.Files) > 0:
		p.Kind, p.Files, p.Partial = protocol.PreviewFiles, prep.Files, prep.Partial
		added, removed := 0, 0
		for _, f := range prep.Files {
			added += f.Added
			removed += f.Removed
		}
		n := len(prep.Files)
		p.Summary = fmt.Sprintf("%s: %s, +%d −%d", tool, plural(n, "file"), added, removed)
		if n == 1 {
			p.Summary = fmt.Sprintf("%s: %s %s, +%d −%d", tool, prep.Files[0].Operation, prep.Files[0].Path, added, removed)
		}
		return p, keys{kind: keyFiles, items: prep.Paths}
	case prep != nil && prep.Command != nil:
		c := *prep.Command
		p.Kind, p.Command = protocol.PreviewCommand, &c
		k := keys{kind: keyNone}
		switch c.Action {
		case "exec", "start":
			line := analyzeShell(c.Command, c.Cwd, g.ws)
			c.Segments, c.ParseError = line.segments, line.parseErr
			c.Sandbox = SandboxLine(&c)
			if line.plain {
				k = keys{kind: keyCommands, calls: line.calls, action: c.Action, cwd: c.Cwd, where: g.where(c.Cwd)}
			}
			p.Summary = fmt.Sprintf("%s %s: %s", tool, c.Action, clip(c.Command, 120))
		default:
			p.Summary = fmt.Sprintf("%s %s %s", tool, c.Action, c.ProcessID)
			if c.Command != "" {
				p.Summary += ": " + clip(c.Command, 100)
			}
		}
		return p, k
	}
	p.Kind, p.Args = protocol.PreviewArgs, args
	var b bytes.Buffer
	if json.Indent(&b, args, "", "  ") == nil {
		p.ArgsText = b.String()
	} else {
		p.ArgsText = string(args)
	}
	p.Summary = tool + " " + clip(strings.Join(strings.Fields(string(args)), " "), 120)
	if prep != nil && prep.Mcp != nil {
		m := *prep.Mcp
		p.Mcp = &m
		if prep.ArgsText != "" {
			p.ArgsText = prep.ArgsText
		}
		p.Summary = m.Server + " › " + m.Tool + " " + clip(strings.Join(strings.Fields(string(args)), " "), 100)
		return p, keys{kind: keyTool}
	}
	if prep != nil && prep.Web != nil {
		w := *prep.Web
		p.Web = &w
		p.Summary = tool + " " + clip(w.URL, 120)
		return p, keys{kind: keyDomain, items: []string{w.Domain}}
	}
	if prep != nil && len(prep.Paths) > 0 {
		return p, keys{kind: keyNone} // changes files it shows no dry run of
	}
	return p, keys{kind: keyTool}
}

// where names folder dir for a rule's summary: relative to the workspace
// root when inside it.
func (g view) where(dir string) string {
	r, ok := g.ws.(interface{ Rel(string) string })
	if !ok {
		return dir
	}
	switch rel := r.Rel(dir); {
	case rel == ".":
		return "the workspace root"
	case !filepath.IsAbs(rel):
		return rel + "/"
	default:
		return rel
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// clip shortens s to at most n runes, on one line.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

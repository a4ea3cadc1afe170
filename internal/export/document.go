// Package export writes a saved session, or a range of its turns, as one
// file to hand on: Markdown, a self-contained HTML page, or JSON Lines of
// its transcript items. Every text passes a Masker first (the API key, the
// values of environment variables whose names mark a secret, well-known
// token shapes), so an export never carries them.
package export

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"gatehouse/internal/approval"
	"gatehouse/internal/protocol"
	"gatehouse/internal/session"
)

// The formats.
const (
	Markdown  = "md"
	HTML      = "html"
	JSONLines = "jsonl"
)

// Options is one export.
type Options struct {
	// Format is Markdown, HTML or JSONLines.
	Format string
	// From and To are the first and last turn (1-based, inclusive); 0:
	// from the first, to the last.
	From, To int
	// EmbedImages puts the pictures in the file (data URLs, Markdown and
	// HTML); otherwise they are listed by name and size. Image returns a
	// picture's bytes by id (nil: pictures are listed).
	EmbedImages bool
	Image       func(id string) (data []byte, mime string, err error)
	// Mask hides secrets (nil: NewMasker(nil, nil), token shapes only).
	Mask *Masker
}

// ParseTurns reads "A-B", "A-" or "A" (1-based turns).
func ParseTurns(s string) (from, to int, err error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, 0, nil
	}
	a, b, ranged := strings.Cut(s, "-")
	bad := fmt.Errorf("--turns %q: give A-B, A- or A (turns count from 1)", s)
	if from, err = strconv.Atoi(a); err != nil || from < 1 {
		return 0, 0, bad
	}
	switch {
	case !ranged:
		to = from
	case b == "":
		to = 0
	default:
		if to, err = strconv.Atoi(b); err != nil || to < from {
			return 0, 0, bad
		}
	}
	return from, to, nil
}

// Turn is one turn of the export: its number and its items, masked.
type Turn struct {
	N     int
	Items []protocol.TranscriptItem
}

// doc is what every format writes: the session's meta and its turns, with
// each call's approval decision.
type doc struct {
	Meta      session.Meta
	Turns     []Turn
	Decisions map[string]approval.Record // by call id
	Children  map[string]childRecord     // by the starting call's id
	opts      Options
}

// build selects the turns and masks every item.
func build(l *session.Loaded, o Options) (*doc, error) {
	if o.Mask == nil {
		o.Mask = NewMasker(nil, nil)
	}
	d := &doc{Meta: l.Meta, Decisions: map[string]approval.Record{}, Children: readChildren(l, o.Mask), opts: o}
	d.Meta.Title = o.Mask.String(d.Meta.Title)
	n := 0
	for _, it := range l.Items {
		if it.Kind == protocol.ItemUser || n == 0 {
			n++
			d.Turns = append(d.Turns, Turn{N: n})
		}
		if o.From > 0 && n < o.From || o.To > 0 && n > o.To {
			continue
		}
		t := &d.Turns[len(d.Turns)-1]
		t.Items = append(t.Items, maskItem(o.Mask, it))
	}
	total := n
	kept := d.Turns[:0]
	for _, t := range d.Turns {
		if len(t.Items) > 0 {
			kept = append(kept, t)
		}
	}
	d.Turns = kept
	if o.From > total {
		return nil, fmt.Errorf("the session has %d turns; --turns starts at %d", total, o.From)
	}
	for _, r := range l.Records {
		if r.Type != session.RecordDecision {
			continue
		}
		var rec approval.Record
		if json.Unmarshal(r.Data, &rec) == nil && rec.CallID != "" {
			if rec.Decision != nil {
				rec.Decision.Note = o.Mask.String(rec.Decision.Note)
			}
			d.Decisions[rec.CallID] = rec
		}
	}
	return d, nil
}

// maskItem masks every text of an item, through its JSON so no field is
// missed.
func maskItem(m *Masker, it protocol.TranscriptItem) protocol.TranscriptItem {
	b, err := json.Marshal(it)
	if err != nil {
		return it
	}
	var out protocol.TranscriptItem
	if json.Unmarshal(m.JSON(b), &out) != nil {
		return it
	}
	return out
}

// Write writes session l in o's format to w.
func Write(w io.Writer, l *session.Loaded, o Options) error {
	d, err := build(l, o)
	if err != nil {
		return err
	}
	switch o.Format {
	case Markdown:
		return d.markdown(w)
	case HTML:
		return d.html(w)
	case JSONLines:
		enc := json.NewEncoder(w)
		for _, t := range d.Turns {
			for _, it := range t.Items {
				if err := enc.Encode(it); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return fmt.Errorf("unknown format %q: md, html or jsonl", o.Format)
}

// approvalLine says who let a call run, or refused it, and by which rule.
func (d *doc) approvalLine(it protocol.TranscriptItem) string {
	rec, decided := d.Decisions[it.ID]
	if decided && rec.Decision != nil && rec.Decision.Kind == protocol.DecisionReject {
		s := "rejected by " + who(string(rec.By))
		if rec.Decision.Note != "" {
			s += ": “" + rec.Decision.Note + "”"
		}
		return s
	}
	a := it.Approval
	if a == nil {
		if decided && rec.Decision != nil {
			return fmt.Sprintf("approved by %s (%s)", who(string(rec.By)), rec.Decision.Kind)
		}
		return ""
	}
	switch a.By {
	case "rule":
		var rules []string
		for _, r := range a.Rules {
			rules = append(rules, r.Summary)
		}
		return "approved by a session rule: " + strings.Join(rules, "; ")
	case "policy":
		var refs []string
		for _, r := range a.Standing {
			refs = append(refs, fmt.Sprintf("%s (%s, %s)", r.ID, r.Layer, r.Summary))
		}
		return "allowed by your policy: " + strings.Join(refs, "; ")
	}
	s := "approved by " + who(a.By)
	if decided && rec.Decision != nil {
		s += " (" + string(rec.Decision.Kind) + ")"
	}
	return s
}

func who(by string) string {
	switch by {
	case "", "user":
		return "the user"
	case "mode":
		return "the approval mode"
	}
	return by
}

// fields reads a call's arguments or result as an object (nil when it is
// none).
func fields(raw json.RawMessage) map[string]any {
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

// ranArgs are the arguments a call ran with: a hook's rewrite when one
// rewrote it, the model's otherwise.
func ranArgs(it protocol.TranscriptItem) json.RawMessage {
	if it.Rewrite != nil {
		return it.Rewrite.Args
	}
	return it.Args
}

// callSummary is a call's one line: its tool and what it acted on.
func callSummary(it protocol.TranscriptItem) string {
	a := fields(ranArgs(it))
	for _, k := range []string{"command", "path", "pattern", "url", "task"} {
		if v := str(a, k); v != "" {
			return it.Tool + " " + firstLine(v)
		}
	}
	if it.Tool == "apply_patch" {
		var files []string
		for _, l := range strings.Split(str(a, "patch"), "\n") {
			for _, p := range []string{"*** Add File: ", "*** Update File: ", "*** Delete File: "} {
				if f, ok := strings.CutPrefix(l, p); ok {
					files = append(files, f)
				}
			}
		}
		return it.Tool + " " + strings.Join(files, ", ")
	}
	return it.Tool
}

func firstLine(s string) string {
	l, _, more := strings.Cut(s, "\n")
	if more || len(l) > 120 {
		if len(l) > 120 {
			l = l[:120]
		}
		l += " …"
	}
	return l
}

// blocks are a call's parts to show folded: (label, language, text).
type block struct{ Label, Lang, Text string }

func callBlocks(it protocol.TranscriptItem) []block {
	args := ranArgs(it)
	a, r := fields(args), fields(it.Result)
	var out []block
	switch {
	case it.Tool == "bash" && str(a, "command") != "":
		out = append(out, block{"command", "sh", str(a, "command")})
	case it.Tool == "apply_patch" && str(a, "patch") != "":
		out = append(out, block{"patch", "diff", str(a, "patch")})
	case len(args) > 0 && string(args) != "{}":
		out = append(out, block{"arguments", "json", indent(args)})
	}
	switch {
	case r == nil && len(it.Result) > 0:
		out = append(out, block{"result", "", string(it.Result)})
	case str(r, "diff") != "":
		out = append(out, block{"diff", "diff", str(r, "diff")})
	case changesDiff(r) != "":
		out = append(out, block{"diff", "diff", changesDiff(r)})
	case it.Tool == "bash" && (r["stdout"] != nil || r["stderr"] != nil):
		text := str(r, "stdout")
		if e := str(r, "stderr"); e != "" {
			text += "\n[stderr]\n" + e
		}
		label := "output"
		if c, ok := r["exitCode"].(float64); ok {
			label = fmt.Sprintf("output (exit %d)", int(c))
		}
		out = append(out, block{label, "", text})
	case len(it.Result) > 0:
		out = append(out, block{"result", "json", indent(it.Result)})
	}
	return out
}

// changesDiff is apply_patch's result's diffs (fileChanges), file after
// file ("" when it has none).
func changesDiff(r map[string]any) string {
	changes, _ := r["fileChanges"].([]any)
	var b strings.Builder
	for _, c := range changes {
		if m, _ := c.(map[string]any); m != nil && str(m, "diff") != "" {
			d := str(m, "diff")
			b.WriteString(d)
			if !strings.HasSuffix(d, "\n") {
				b.WriteString("\n")
			}
		}
	}
	return b.String()
}

func indent(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

// stopLine is a turn's end: its reason, tokens and cost.
func stopLine(it protocol.TranscriptItem) string {
	s := "turn ended: " + string(it.Reason)
	if it.Error != "" {
		s += " (" + it.Error + ")"
	}
	if it.Usage != nil {
		s += fmt.Sprintf(" · %d tokens in, %d out", it.Usage.PromptTokens, it.Usage.CompletionTokens)
	}
	if it.Cost != nil {
		s += fmt.Sprintf(" · $%.4f", *it.Cost)
	}
	if it.Model != "" {
		s += " · " + it.Model
	}
	return s
}

// imageLine lists a picture that is not embedded.
func imageLine(im protocol.ImageRef) string {
	name := im.Name
	if name == "" {
		name = "pasted image"
	}
	return fmt.Sprintf("%s (%s, %d×%d, %s)", name, im.MIME, im.Width, im.Height, im.ID)
}

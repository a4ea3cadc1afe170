package patch

import (
	"reflect"
	"strings"
	"testing"
)

// nl ends every line render writes: Parse drops one carriage return
// before each line feed, so a line whose own text ends in "\r" keeps it
// only when written with CRLF.
const nl = "\r\n"

// render writes p back as patch text in the canonical form.
func render(p *Patch) string {
	var b strings.Builder
	b.WriteString(beginMarker + nl)
	for _, op := range p.Ops {
		switch op.Kind {
		case OpAdd:
			b.WriteString(addHeader + op.Path + nl)
			for _, l := range strings.SplitAfter(op.Content, "\n") {
				if l != "" {
					b.WriteString("+" + strings.TrimSuffix(l, "\n") + nl)
				}
			}
		case OpDelete:
			b.WriteString(deleteHeader + op.Path + nl)
		case OpUpdate:
			b.WriteString(updateHeader + op.Path + nl)
			if op.MoveTo != "" {
				b.WriteString(moveHeader + op.MoveTo + nl)
			}
			for _, c := range op.Chunks {
				if c.Context != "" {
					b.WriteString("@@ " + c.Context + nl)
				} else {
					b.WriteString("@@" + nl)
				}
				for _, l := range c.Lines {
					b.WriteString(string(rune(l.Kind)) + l.Text + nl)
				}
				if c.EOF {
					b.WriteString(eofMarker + nl)
				}
			}
		}
	}
	b.WriteString(endMarker + nl)
	return b.String()
}

// shape drops line numbers, which differ between a text and its rendering.
func shape(p *Patch) *Patch {
	q := &Patch{Ops: append([]Op(nil), p.Ops...)}
	for i := range q.Ops {
		q.Ops[i].Line = 0
		q.Ops[i].Chunks = append([]Chunk(nil), q.Ops[i].Chunks...)
		for j := range q.Ops[i].Chunks {
			q.Ops[i].Chunks[j].Line = 0
		}
	}
	return q
}

func TestParseShapes(t *testing.T) {
	text := "\n  <<'EOF'\n*** Begin Patch\n*** Add File: a b.txt\n+x\n+\n*** Update File: m.go\n*** Move to: n.go\n" +
		"@@ func f() {\n-\told\n+\tnew\n \n@@ -10,2 +10,2 @@ type T\n+z\n*** End of File\n*** Delete File: gone\n*** End Patch\nEOF\n"
	p, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	want := &Patch{Ops: []Op{
		{Kind: OpAdd, Path: "a b.txt", Content: "x\n\n"},
		{Kind: OpUpdate, Path: "m.go", MoveTo: "n.go", Chunks: []Chunk{
			{Context: "func f() {", Lines: []Line{{Remove, "\told"}, {Insert, "\tnew"}}},
			{Context: "type T", Lines: []Line{{Insert, "z"}}, EOF: true},
		}},
		{Kind: OpDelete, Path: "gone"},
	}}
	if got := shape(p); !reflect.DeepEqual(got, want) {
		t.Errorf("Parse =\n%+v\nwant\n%+v", got, want)
	}
	if p.Ops[1].Line != 7 || p.Ops[1].Chunks[1].Line != 13 {
		t.Errorf("line numbers: op %d chunk %d", p.Ops[1].Line, p.Ops[1].Chunks[1].Line)
	}
}

func TestParseErrorsNameLine(t *testing.T) {
	_, err := Parse("*** Begin Patch\n*** Update File: a\n@@\n-x\n???\n*** End Patch")
	pe, ok := err.(*ParseError)
	if !ok || pe.Line != 5 || !strings.Contains(err.Error(), "line 5") {
		t.Fatalf("err = %v", err)
	}
}

// FuzzParse checks that Parse never panics, that what it accepts is well
// formed, and that rendering a parsed patch parses back to the same patch.
func FuzzParse(f *testing.F) {
	f.Add("*** Begin Patch\n*** Add File: a\n+x\n*** End Patch")
	f.Add("*** Begin Patch\n*** Update File: a\n*** Move to: b\n@@ ctx\n a\n-b\n+c\n\n@@\n+d\n*** End of File\n*** End Patch\n")
	f.Add("<<EOF\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF")
	f.Add("*** Begin Patch\r\n*** Update File: a\r\n x\r\n-y\r\n*** End Patch\r\n")
	f.Add("*** Begin Patch\n*** Update File: a\n@@ -1,2 +1,2 @@ f\n-a\n*** End Patch")
	f.Fuzz(func(t *testing.T, text string) {
		p, err := Parse(text)
		if err != nil {
			if _, ok := err.(*ParseError); !ok {
				t.Fatalf("error %T is not a *ParseError", err)
			}
			return
		}
		if len(p.Ops) == 0 {
			t.Fatal("accepted a patch without operations")
		}
		for _, op := range p.Ops {
			if op.Path == "" || strings.ContainsAny(op.Path, "\n") {
				t.Fatalf("bad path %q", op.Path)
			}
			if op.Kind == OpUpdate && len(op.Chunks) == 0 && op.MoveTo == "" {
				t.Fatal("update without chunks")
			}
			for _, c := range op.Chunks {
				if len(c.Lines) == 0 {
					t.Fatal("chunk without lines")
				}
			}
		}
		q, err := Parse(render(p))
		if err != nil {
			t.Fatalf("rendered patch does not parse: %v\n%s", err, render(p))
		}
		if !reflect.DeepEqual(shape(p), shape(q)) {
			t.Fatalf("round trip changed the patch:\n%+v\n%+v", shape(p), shape(q))
		}
	})
}

package files

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// read_file numbers lines as `cat -n` does: six columns, a tab, the line as
// it is in the file.
func TestReadFileNumbersLines(t *testing.T) {
	_, ws := fixture(t)
	root := ws.Root()
	long := strings.Repeat("x", 30000)
	files := map[string]string{
		"nofinal.txt": "first\nsecond\nlast without newline",
		"digits.txt":  "12\tlooks numbered\n  7 spaces first\n",
		"crlf.txt":    "one\r\ntwo\r\n",
		"wide.txt":    "short\n" + long + "\nafter\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rf := NewReadFile(ws)
	cases := []struct {
		name      string
		args      map[string]any
		content   string
		end       int
		truncated bool
	}{
		{"no final newline: the last line stays without one", map[string]any{"path": "nofinal.txt"},
			"     1\tfirst\n     2\tsecond\n     3\tlast without newline", 3, false},
		{"a range ending on the unterminated line", map[string]any{"path": "nofinal.txt", "startLine": 2, "endLine": 9},
			"     2\tsecond\n     3\tlast without newline", 3, false},
		{"a range in the middle", map[string]any{"path": "nofinal.txt", "startLine": 2, "endLine": 2},
			"     2\tsecond\n", 2, false},
		{"lines that start with digits, tabs and spaces keep them after the tab", map[string]any{"path": "digits.txt"},
			"     1\t12\tlooks numbered\n     2\t  7 spaces first\n", 2, false},
		{"CRLF endings are kept", map[string]any{"path": "crlf.txt"},
			"     1\tone\r\n     2\ttwo\r\n", 2, false},
		{"a long line that does not fit stops the read before it", map[string]any{"path": "wide.txt"},
			"     1\tshort\n", 1, true},
		{"a long first line is cut, still numbered", map[string]any{"path": "wide.txt", "startLine": 2, "maxChars": 10},
			"     2\txxxxxxxxxx", 2, true},
		{"the long line fits in a larger budget", map[string]any{"path": "wide.txt", "startLine": 2, "endLine": 2, "maxChars": 40000},
			"     2\t" + long + "\n", 2, false},
	}
	for _, c := range cases {
		out, isErr := run(t, rf, c.args)
		if isErr {
			t.Errorf("%s: error %v", c.name, out)
			continue
		}
		if out["content"] != c.content || int(out["endLine"].(float64)) != c.end || out["truncated"] != c.truncated {
			t.Errorf("%s:\n got %q end %v truncated %v\nwant %q end %d truncated %v", c.name,
				out["content"], out["endLine"], out["truncated"], c.content, c.end, c.truncated)
		}
	}
}

// Stripping each line's number and tab gives back the file byte for byte.
func TestReadFileNumbersStripToTheFile(t *testing.T) {
	_, ws := fixture(t)
	body := "package main\n\n\tfunc main() {}\n// 42\tend"
	os.WriteFile(filepath.Join(ws.Root(), "m.go"), []byte(body), 0o644)
	out, _ := run(t, NewReadFile(ws), map[string]any{"path": "m.go"})
	var back strings.Builder
	for _, l := range strings.SplitAfter(out["content"].(string), "\n") {
		if l == "" {
			continue
		}
		_, rest, ok := strings.Cut(l, "\t")
		if !ok {
			t.Fatalf("line without a number separator: %q", l)
		}
		back.WriteString(rest)
	}
	if back.String() != body {
		t.Errorf("stripped %q, want %q", back.String(), body)
	}
}

// A model that copies read_file's numbered lines into an apply_patch, as
// they came, still patches the lines it read.
func TestPatchFromNumberedReadFileLines(t *testing.T) {
	_, ws := fixture(t)
	os.WriteFile(filepath.Join(ws.Root(), "p.go"), []byte("package p\n\nfunc a() int {\n\treturn 1\n}\n"), 0o644)
	out, _ := run(t, NewReadFile(ws), map[string]any{"path": "p.go", "startLine": 3, "endLine": 5})
	lines := strings.SplitAfter(out["content"].(string), "\n")
	// "     3\tfunc a() int {\n", "     4\t\treturn 1\n", "     5\t}\n"
	patch := "*** Begin Patch\n*** Update File: p.go\n@@\n " + lines[0] + "-" + lines[1] + "+     4\t\treturn 2\n " + lines[2] + "*** End Patch\n"
	res, isErr := run(t, NewApplyPatch(ws), map[string]any{"patch": patch})
	if isErr {
		t.Fatalf("apply_patch: %v", res)
	}
	if b, _ := os.ReadFile(filepath.Join(ws.Root(), "p.go")); string(b) != "package p\n\nfunc a() int {\n\treturn 2\n}\n" {
		t.Errorf("p.go = %q", b)
	}
}

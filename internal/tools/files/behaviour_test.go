package files

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadFile(t *testing.T) {
	_, ws := fixture(t)
	root := ws.Root()
	var long strings.Builder
	for i := 1; i <= 100; i++ {
		fmt.Fprintf(&long, "line %03d\n", i) // 9 characters each
	}
	os.WriteFile(filepath.Join(root, "long.txt"), []byte(long.String()), 0o644)
	os.WriteFile(filepath.Join(root, "latin1.txt"), []byte("caf\xe9\n"), 0o644)
	rf := NewReadFile(ws)
	cases := []struct {
		args              map[string]any
		content           string
		start, end, total int
		truncated         bool
		code              string
	}{
		{args: map[string]any{"path": "src/a.txt"}, content: "     1\talpha\n     2\tbeta\n     3\tgamma\n", start: 1, end: 3, total: 3},
		{args: map[string]any{"path": "link.txt", "startLine": 2, "endLine": 2}, content: "     2\tbeta\n", start: 2, end: 2, total: 3},
		{args: map[string]any{"path": "long.txt", "startLine": 10, "maxChars": 20}, content: "    10\tline 010\n    11\tline 011\n", start: 10, end: 11, total: 100, truncated: true},
		{args: map[string]any{"path": "long.txt", "startLine": 98}, content: "    98\tline 098\n    99\tline 099\n   100\tline 100\n", start: 98, end: 100, total: 100},
		{args: map[string]any{"path": "long.txt", "maxChars": 4}, content: "     1\tline", start: 1, end: 1, total: 100, truncated: true},
		{args: map[string]any{"path": "src/a.txt", "startLine": 9}, content: "", start: 9, end: 3, total: 3},
		{args: map[string]any{"path": "bin.dat"}, code: "binary_file"},
		{args: map[string]any{"path": "latin1.txt"}, code: "binary_file"},
		{args: map[string]any{"path": "src"}, code: "is_directory"},
		{args: map[string]any{"path": "nope.txt"}, code: "not_found"},
		{args: map[string]any{"path": "dangling"}, code: "not_found"},
		{args: map[string]any{"path": "src/a.txt", "startLine": 3, "endLine": 2}, code: "invalid_arguments"},
		{args: map[string]any{"path": "src/a.txt", "bogus": 1}, code: "invalid_arguments"},
	}
	for _, c := range cases {
		out, isErr := run(t, rf, c.args)
		if c.code != "" {
			if !isErr || errCode(out) != c.code {
				t.Errorf("%v: %v, want %s", c.args, out, c.code)
			}
			continue
		}
		if isErr || out["content"] != c.content || int(out["startLine"].(float64)) != c.start ||
			int(out["endLine"].(float64)) != c.end || int(out["totalLines"].(float64)) != c.total || out["truncated"] != c.truncated {
			t.Errorf("%v: %v", c.args, out)
		}
	}
	out, _ := run(t, rf, map[string]any{"path": "bin.dat"})
	if msg := out["error"].(map[string]any)["message"].(string); !strings.Contains(msg, "9 bytes") {
		t.Errorf("binary error does not give the size: %s", msg)
	}
}

func TestWriteFile(t *testing.T) {
	_, ws := fixture(t)
	root := ws.Root()
	os.Chmod(filepath.Join(root, "src/a.txt"), 0o600)
	wf := NewWriteFile(ws)
	out, isErr := run(t, wf, map[string]any{"path": "src/a.txt"})
	if !isErr || errCode(out) != "invalid_arguments" {
		t.Errorf("missing content: %v", out)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "src/a.txt")); len(b) == 0 {
		t.Error("missing content emptied the file")
	}
	out, _ = run(t, wf, map[string]any{"path": "src/a.txt", "content": "new\n"})
	if out["created"] != false || out["mode"] != "overwrite" || out["bytesWritten"] != 4.0 || out["path"] != "src/a.txt" {
		t.Errorf("overwrite: %v", out)
	}
	if d, _ := out["diff"].(string); !strings.Contains(d, "\n+new\n") || !strings.Contains(d, "\n-") || out["linesAdded"] != 1.0 {
		t.Errorf("overwrite diff: %v", out)
	}
	if fi, _ := os.Stat(filepath.Join(root, "src/a.txt")); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode not kept: %v", fi.Mode())
	}
	out, _ = run(t, wf, map[string]any{"path": "src/a.txt", "content": "more\n", "mode": "append"})
	if out["appended"] != true || out["linesAdded"] != 1.0 || out["linesRemoved"] != 0.0 || !strings.Contains(out["diff"].(string), "\n+more\n") {
		t.Errorf("append: %v", out)
	}
	out, _ = run(t, wf, map[string]any{"path": "n/e/w.txt", "content": "", "mode": "create"})
	if out["created"] != true || out["resolvedPath"] != filepath.Join(root, "n/e/w.txt") || out["diff"] != nil {
		t.Errorf("create: %v", out)
	}
	out, isErr = run(t, wf, map[string]any{"path": "n/e/w.txt", "content": "x", "mode": "create"})
	if !isErr || errCode(out) != "already_exists" {
		t.Errorf("create existing: %v", out)
	}
	out, _ = run(t, wf, map[string]any{"path": "dangling", "content": "via link\n"})
	if out["created"] != true {
		t.Errorf("write through dangling link: %v", out)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "src/a.txt")); string(b) != "new\nmore\n" {
		t.Errorf("a.txt = %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "src/missing.txt")); string(b) != "via link\n" {
		t.Errorf("missing.txt = %q", b)
	}
}

func TestApplyPatchResult(t *testing.T) {
	_, ws := fixture(t)
	ap := NewApplyPatch(ws)
	out, isErr := run(t, ap, map[string]any{"patch": "*** Begin Patch\n*** Update File: src/a.txt\n*** Move to: src/c.txt\n@@\n-beta\n+BETA\n*** Add File: n.txt\n+n\n*** End Patch"})
	if isErr || out["filesChanged"] != 3.0 || out["operationsApplied"] != 2.0 {
		t.Fatalf("result: %v", out)
	}
	fc := out["fileChanges"].([]any)[0].(map[string]any)
	if fc["path"] != "src/c.txt" || fc["operation"] != "move" || fc["movedFrom"] != "src/a.txt" || fc["linesAdded"] != 1.0 || fc["linesRemoved"] != 1.0 ||
		!strings.Contains(fc["diff"].(string), "-beta\n+BETA\n") {
		t.Errorf("fileChange: %v", fc)
	}
	out, isErr = run(t, ap, map[string]any{"patch": "*** Begin Patch\n*** Add File: z.txt\n+z\n*** Update File: src/b.go\n@@\n-nothing like this\n+x\n*** End Patch"})
	msg := out["error"].(map[string]any)["message"].(string)
	if !isErr || errCode(out) != "patch_context_not_found" || !strings.Contains(msg, "src/b.go") ||
		!strings.Contains(msg, "nothing like this") || !strings.Contains(msg, "No file was modified") {
		t.Errorf("failure: %v", out)
	}
	if _, err := os.Stat(filepath.Join(ws.Root(), "z.txt")); err == nil {
		t.Error("z.txt was added by a failing patch")
	}
}

func TestSearchCaps(t *testing.T) {
	_, ws := fixture(t)
	for i := 0; i < 30; i++ {
		os.WriteFile(filepath.Join(ws.Root(), "src", fmt.Sprintf("m%02d.txt", i)), []byte("needle\nneedle\n"), 0o644)
	}
	out, _ := run(t, NewGrep(ws), map[string]any{"pattern": "NEEDLE", "caseInsensitive": true, "include": "*.txt", "maxResults": 5})
	if len(out["matches"].([]any)) != 5 || out["truncated"] != true {
		t.Errorf("grep cap: %v", out)
	}
	out, _ = run(t, NewGrep(ws), map[string]any{"pattern": "NEEDLE"})
	if len(out["matches"].([]any)) != 0 || out["truncated"] != false {
		t.Errorf("grep case-sensitive: %v", out)
	}
	out, _ = run(t, NewGrep(ws), map[string]any{"pattern": "("})
	if errCode(out) != "invalid_arguments" {
		t.Errorf("bad regexp: %v", out)
	}
	out, _ = run(t, NewGlob(ws), map[string]any{"pattern": "src/m1*.txt", "maxResults": 3})
	if len(out["matches"].([]any)) != 3 || out["truncated"] != true {
		t.Errorf("glob cap: %v", out)
	}
	out, _ = run(t, NewGlob(ws), map[string]any{"pattern": "*.go", "path": "src"})
	if m := out["matches"].([]any); len(m) != 1 || m[0] != "src/b.go" || out["truncated"] != false {
		t.Errorf("glob in folder: %v", out)
	}
	out, _ = run(t, NewListDir(ws), map[string]any{"path": "src"})
	if n := len(out["entries"].([]any)); n != 32 || out["truncated"] != false {
		t.Errorf("list_dir: %d entries %v", n, out["truncated"])
	}
	out, _ = run(t, NewListDir(ws), map[string]any{"path": "src/a.txt"})
	if errCode(out) != "not_directory" {
		t.Errorf("list_dir of a file: %v", out)
	}
}

func TestMatchGlob(t *testing.T) {
	for _, c := range []struct {
		pat, p string
		ok     bool
	}{
		{"**/*.go", "a/b/c.go", true}, {"**/*.go", "c.go", true}, {"src/**/t_*.py", "src/t_x.py", true},
		{"src/**/t_*.py", "src/a/b/t_x.py", true}, {"src/*.go", "src/a/b.go", false}, {"*.go", "a/b.go", false},
		{"a/**", "a/b/c", true}, {"[ab].txt", "c.txt", false},
	} {
		if got := matchGlob(c.pat, c.p); got != c.ok {
			t.Errorf("matchGlob(%q, %q) = %v", c.pat, c.p, got)
		}
	}
}

func TestSpecs(t *testing.T) {
	_, ws := fixture(t)
	readOnly := map[string]bool{"read_file": true, "list_dir": true, "glob": true, "grep": true, "write_file": false, "apply_patch": false}
	for _, tool := range All(ws) {
		s := tool.Spec()
		if ro, ok := readOnly[s.Name]; !ok || ro != s.ReadOnly || len(s.Description) < 100 || !strings.Contains(string(s.Parameters), `"type": "object"`) {
			t.Errorf("spec %s: readOnly %v, description %d chars", s.Name, s.ReadOnly, len(s.Description))
		}
		delete(readOnly, s.Name)
	}
	if len(readOnly) != 0 {
		t.Errorf("missing tools: %v", readOnly)
	}
}

package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runTool(t *testing.T, stdin string, args ...string) (int, map[string]any, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Tool(args, strings.NewReader(stdin), &out, &errb)
	var v map[string]any
	if out.Len() > 0 {
		if err := json.Unmarshal(out.Bytes(), &v); err != nil {
			t.Fatalf("stdout %q is not JSON", out.String())
		}
	}
	return code, v, errb.String()
}

func TestTool(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\ntwo\n"), 0o644)

	code, v, _ := runTool(t, "", "read_file", "--workspace", dir, "--args", `{"path":"a.txt"}`)
	if code != ExitOK || v["content"] != "     1\tone\n     2\ttwo\n" {
		t.Errorf("read_file: %d %v", code, v)
	}
	// Flags before the name work too.
	code, v, _ = runTool(t, "", "--workspace", dir, "list_dir")
	if code != ExitOK || len(v["entries"].([]any)) != 1 {
		t.Errorf("list_dir: %d %v", code, v)
	}
	// apply_patch reads the raw patch from stdin.
	code, v, _ = runTool(t, "*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+2\n*** End Patch\n", "apply_patch", "--workspace", dir)
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); code != ExitOK || string(b) != "one\n2\n" || v["filesChanged"] != 1.0 {
		t.Errorf("apply_patch from stdin: %d %v %q", code, v, b)
	}
	// A tool error: exit 1 and the JSON error.
	code, v, _ = runTool(t, "", "read_file", "--workspace", dir, "--args", `{"path":"../x"}`)
	e, _ := v["error"].(map[string]any)
	if code != ExitToolError || v["ok"] != false || e["code"] != "outside_workspace" || e["path"] != "../x" {
		t.Errorf("tool error: %d %v", code, v)
	}
	code, v, _ = runTool(t, "*** Begin Patch\n*** Delete File: nope\n*** End Patch", "apply_patch", "--workspace", dir)
	if e, _ := v["error"].(map[string]any); code != ExitToolError || e["code"] != "not_found" {
		t.Errorf("patch error: %d %v", code, v)
	}
	// Bad usage: exit 2, nothing on stdout.
	for _, args := range [][]string{
		{},
		{"read_file"},
		{"nope", "--workspace", dir},
		{"read_file", "--workspace", dir, "--args", "{not json"},
		{"read_file", "--workspace", filepath.Join(dir, "missing")},
		{"read_file", "--workspace", dir, "extra"},
		{"read_file", "--bogus"},
	} {
		code, v, stderr := runTool(t, "", args...)
		if code != ExitUsage || v != nil || !strings.Contains(stderr, "usage") {
			t.Errorf("%q: exit %d, stdout %v, stderr %q", args, code, v, stderr)
		}
	}
}

package builtin

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/proc"
	"gatehouse/internal/tools"
	"gatehouse/internal/workspace"
)

func TestBashCwdGoesThroughTheBoundary(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	os.Mkdir(filepath.Join(root, "sub"), 0o755)
	os.Symlink(outside, filepath.Join(root, "sub", "escape"))
	os.WriteFile(filepath.Join(root, "file.txt"), []byte("x"), 0o644)
	ws, err := workspace.New(root, workspace.Options{ProtectedDirs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	procs := proc.NewRegistry(proc.Options{})
	defer procs.CloseAll()
	reg, err := Registry(ws, procs)
	if err != nil {
		t.Fatal(err)
	}
	rt := tools.NewRouter(reg, tools.Policy{})
	run := func(args string) tools.Result {
		res, err := rt.Run(context.Background(), tools.Call{ID: "c", Name: "bash", Args: json.RawMessage(args)})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := run(`{"action":"exec","command":"pwd","cwd":"sub"}`)
	if res.IsError || !strings.Contains(string(res.Output), filepath.Join(root, "sub")) {
		t.Fatalf("exec in sub: %s", res.Output)
	}
	for _, c := range []struct{ cwd, code string }{
		{"sub/escape", tools.CodeOutsideWorkspace},
		{"../", tools.CodeOutsideWorkspace},
		{outside, tools.CodeOutsideWorkspace},
		{"missing", tools.CodeNotFound},
		{"file.txt", tools.CodeNotDirectory},
	} {
		res := run(`{"action":"exec","command":"pwd","cwd":"` + c.cwd + `"}`)
		if !res.IsError || !strings.Contains(string(res.Output), c.code) {
			t.Errorf("cwd %q: want %s, got %s", c.cwd, c.code, res.Output)
		}
	}
	var names []string
	for _, s := range rt.Specs() {
		names = append(names, s.Name)
	}
	if got := strings.Join(names, ","); got != "apply_patch,bash,glob,grep,list_dir,read_file,web_fetch,write_file" {
		t.Errorf("tools: %s", got)
	}
}

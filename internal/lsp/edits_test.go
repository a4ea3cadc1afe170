package lsp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"gatehouse/internal/tools"
	"gatehouse/internal/tools/files"
	"gatehouse/internal/workspace"
)

// applyPatch runs apply_patch in ws through the plan stage and m's
// middleware, as a session's chain does, and returns what the model reads.
func applyPatch(t *testing.T, ws *workspace.Workspace, m *Manager, patch string) map[string]any {
	t.Helper()
	tool := files.NewApplyPatch(ws)
	h := tools.Chain(tool, tools.Plan(nil), m.Middleware)
	args, _ := json.Marshal(map[string]string{"patch": patch})
	res, err := h(context.Background(), tools.Call{ID: "c1", Name: "apply_patch", Args: args})
	if err != nil || res.IsError {
		t.Fatalf("apply_patch: %v %s", err, res.Output)
	}
	var out map[string]any
	if err := json.Unmarshal(res.Output, &out); err != nil {
		t.Fatalf("result is not JSON: %v: %s", err, res.Output)
	}
	if !strings.HasSuffix(string(res.Output), "}") {
		t.Fatal(string(res.Output))
	}
	return out
}

func openWorkspace(t *testing.T, root string) *workspace.Workspace {
	t.Helper()
	ws, err := workspace.New(root, workspace.Options{ProtectedDirs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// TestApplyPatchIntroducingATypeErrorSaysSo: an apply_patch that breaks a
// Go build gets, at the end of the result the model reads, the error it
// introduced (main.go:6:14 error undefined: …); the patch that fixes it
// reports it fixed.
func TestApplyPatchIntroducingATypeErrorSaysSo(t *testing.T) {
	needServer(t, "gopls")
	root := t.TempDir()
	plant(t, root, map[string]string{"go.mod": goMod, "main.go": goClean})
	ws := openWorkspace(t, root)
	m := newTestManager(t, ws.Root(), Options{})

	out := applyPatch(t, ws, m, "*** Begin Patch\n*** Update File: main.go\n@@\n func main() {\n-\tfmt.Println(\"hi\")\n+\tfmt.Println(undefinedName)\n }\n*** End Patch")
	text, _ := out["diagnostics"].(string)
	t.Logf("diagnostics: %s", text)
	if !strings.Contains(text, "introduced (1)") || !strings.Contains(text, "main.go:6:14 error undefined: undefinedName") {
		t.Fatalf("result: %v", out)
	}
	if out["filesChanged"] == nil {
		t.Fatalf("the tool's own result is gone: %v", out)
	}

	out = applyPatch(t, ws, m, "*** Begin Patch\n*** Update File: main.go\n@@\n func main() {\n-\tfmt.Println(undefinedName)\n+\tfmt.Println(\"fixed\")\n }\n*** End Patch")
	text, _ = out["diagnostics"].(string)
	if !strings.Contains(text, "fixed (1)") || !strings.Contains(text, "undefined: undefinedName") || strings.Contains(text, "introduced") {
		t.Fatalf("fix: %v", out)
	}

	// An edit that changes nothing the server reports adds nothing.
	out = applyPatch(t, ws, m, "*** Begin Patch\n*** Update File: main.go\n@@\n func main() {\n-\tfmt.Println(\"fixed\")\n+\tfmt.Println(\"again\")\n }\n*** End Patch")
	if _, ok := out["diagnostics"]; ok {
		t.Fatalf("clean edit: %v", out)
	}
}

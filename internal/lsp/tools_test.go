package lsp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"gatehouse/internal/tools"
)

func runTool(t *testing.T, tool tools.Tool, args string) (map[string]any, tools.Result) {
	t.Helper()
	res, err := tool.Run(context.Background(), json.RawMessage(args))
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	json.Unmarshal(res.Output, &out)
	return out, res
}

// TestDefinitionReferencesAndDiagnosticsTools: the model's read-only
// tools answer from gopls, through the workspace boundary.
func TestDefinitionReferencesAndDiagnosticsTools(t *testing.T) {
	needServer(t, "gopls")
	root := t.TempDir()
	plant(t, root, map[string]string{"go.mod": goMod,
		"lib.go":  "package main\n\nfunc Greet() string { return \"hi\" }\n",
		"main.go": "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(Greet(), Greet())\n}\n",
		"bad.go":  "package main\n\nvar x int = \"no\"\n",
	})
	ws := openWorkspace(t, root)
	m := newTestManager(t, ws.Root(), Options{})
	ts := Tools(m, ws)
	for _, tool := range ts {
		if !tool.Spec().ReadOnly {
			t.Fatalf("%s is not read-only", tool.Spec().Name)
		}
	}
	_, res := runTool(t, ts[1], `{"path":"main.go","line":6,"column":14}`)
	if res.IsError || !strings.Contains(string(res.Output), `"path":"lib.go","line":3,"col":6`) {
		t.Fatalf("definition: %s", res.Output)
	}
	refs, res := runTool(t, ts[2], `{"path":"lib.go","line":3,"column":7}`)
	if res.IsError || refs["total"] != float64(3) {
		t.Fatalf("references: %s", res.Output)
	}
	_, res = runTool(t, ts[0], `{"path":"bad.go"}`)
	if res.IsError || !strings.Contains(string(res.Output), `bad.go:3:13 error cannot use \"no\"`) {
		t.Fatalf("diagnostics: %s", res.Output)
	}
	all, _ := runTool(t, ts[0], `{}`)
	if all["files"] != float64(3) {
		t.Fatalf("open files: %s", all)
	}
	if _, res := runTool(t, ts[1], `{"path":"../x.go","line":1,"column":1}`); !res.IsError || !strings.Contains(string(res.Output), "outside") {
		t.Fatalf("outside: %s", res.Output)
	}
}

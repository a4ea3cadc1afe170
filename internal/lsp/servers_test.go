package lsp

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestOverlayComputesWithoutWriting: proposed content checked as an
// overlay gets the diagnostics the edit would get on disk, while the
// file's bytes and mtime stay as they were; the server is set back, so a
// check of the disk after it is clean again.
func TestOverlayComputesWithoutWriting(t *testing.T) {
	needServer(t, "gopls")
	root := t.TempDir()
	plant(t, root, map[string]string{"go.mod": goMod, "main.go": goClean})
	m := newTestManager(t, root, Options{})
	file := filepath.Join(m.Root(), "main.go")
	fi0, _ := os.Stat(file)
	ctx := context.Background()
	before := m.Check(ctx, Disk(file), false)
	proposed := goBroken
	over := m.Check(ctx, map[string]*string{file: &proposed}, true)
	d := Compare(before, over)
	if d.Errors() != 1 || !contains(d.Introduced, "main.go:6:14 error undefined: undefinedName") {
		t.Fatalf("overlay: %+v", d)
	}
	b, _ := os.ReadFile(file)
	fi1, _ := os.Stat(file)
	if string(b) != goClean || !fi1.ModTime().Equal(fi0.ModTime()) {
		t.Fatalf("the overlay touched the file: %q %v %v", b, fi0.ModTime(), fi1.ModTime())
	}
	if again := m.Check(ctx, Disk(file), false); len(again.Files["main.go"]) != 0 || len(again.Problems) != 0 {
		t.Fatalf("after the overlay: %+v", again)
	}
}

// TestTypeScriptServerReportsATypeError: typescript-language-server (with
// the pinned TypeScript 6) reports a type error an edit introduces.
func TestTypeScriptServerReportsATypeError(t *testing.T) {
	needServer(t, "typescript-language-server")
	root := t.TempDir()
	plant(t, root, map[string]string{
		"tsconfig.json": `{"compilerOptions":{"strict":true,"noEmit":true,"target":"es2022"}}`,
		"src/a.ts":      "export const n: number = 1;\n",
	})
	m := newTestManager(t, root, Options{Servers: tsServers(t)})
	file := filepath.Join(m.Root(), "src", "a.ts")
	ctx := context.Background()
	before := m.Check(ctx, Disk(file), false)
	bad := "export const n: number = \"one\";\n"
	after := m.Check(ctx, map[string]*string{file: &bad}, true)
	d := Compare(before, after)
	t.Logf("%+v\n%s", before, d.Text())
	if d.Errors() != 1 || !contains(d.Introduced, "src/a.ts:1:14 error Type 'string' is not assignable to type 'number'") {
		t.Fatalf("%+v", d)
	}
}

// tsServers is the built-in typescript server pointed at the pinned
// TypeScript (its tsserver.js), as a user's setting would.
func tsServers(t *testing.T) []ServerConfig {
	lib := filepath.Join(repo(), "testdata", "lsp", "node_modules", "typescript", "lib")
	if _, err := os.Stat(filepath.Join(lib, "tsserver.js")); err != nil {
		t.Skip("the pinned TypeScript is not installed (make lsp-servers)")
	}
	s := Merge(Defaults(), map[string]ServerConfig{"typescript": {
		Options: map[string]any{"tsserver": map[string]any{"path": filepath.Join(lib, "tsserver.js")}}}})
	return s
}

// TestPyrightReportsAnUndefinedName: pyright checks a Python file given
// to it and reports a name the edit leaves undefined.
func TestPyrightReportsAnUndefinedName(t *testing.T) {
	needServer(t, "pyright-langserver")
	root := t.TempDir()
	plant(t, root, map[string]string{"app.py": "def f() -> int:\n    return 1\n"})
	m := newTestManager(t, root, Options{})
	file := filepath.Join(m.Root(), "app.py")
	ctx := context.Background()
	before := m.Check(ctx, Disk(file), false)
	bad := "def f() -> int:\n    return missing_name\n"
	after := m.Check(ctx, map[string]*string{file: &bad}, true)
	d := Compare(before, after)
	t.Logf("%+v\n%s", before, d.Text())
	if d.Errors() != 1 || !contains(d.Introduced, "app.py:2:12 error \"missing_name\" is not defined") {
		t.Fatalf("%+v", d)
	}
}

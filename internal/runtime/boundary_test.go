package runtime

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// assemblers are the constructors only this package may call outside tests
// and benchmarks: a host that calls them builds a session by hand, and its
// sessions drift from the others' (tools, middleware order, gate).
var assemblers = map[string]map[string]bool{
	"gatehouse/internal/tools":         {"NewRouter": true},
	"gatehouse/internal/agent":         {"New": true},
	"gatehouse/internal/tools/builtin": {"Registry": true},
}

// TestOnlyTheRuntimeAssemblesSessions walks the module's Go source and fails
// on a call of an assembler outside internal/runtime, tests and benchmarks
// (folders named *bench, benchmark files).
func TestOnlyTheRuntimeAssemblesSessions(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			name := d.Name()
			if rel == "internal/runtime" || name == "node_modules" || name == "frontend" || name == "build" ||
				strings.HasPrefix(name, ".") && rel != "." || strings.HasSuffix(name, "bench") || name == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		checked++
		for _, bad := range assemblerCalls(t, path, "gatehouse/"+filepath.ToSlash(filepath.Dir(rel))) {
			t.Errorf("%s: calls %s; build sessions with runtime.New", rel, bad)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("only %d files checked: the walk missed the module", checked)
	}
}

// assemblerCalls lists the assembler calls in file, whose package has
// import path pkg.
func assemblerCalls(t *testing.T, file, pkg string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	names := map[string]string{} // local name → import path
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		if assemblers[p] == nil {
			continue
		}
		local := p[strings.LastIndex(p, "/")+1:]
		if im.Name != nil {
			local = im.Name.Name
		}
		names[local] = p
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		switch fn := c.Fun.(type) {
		case *ast.SelectorExpr:
			if x, ok := fn.X.(*ast.Ident); ok && assemblers[names[x.Name]][fn.Sel.Name] {
				out = append(out, names[x.Name]+"."+fn.Sel.Name)
			}
		case *ast.Ident:
			if assemblers[pkg][fn.Name] {
				out = append(out, pkg+"."+fn.Name)
			}
		}
		return true
	})
	return out
}

// The check finds what it is for.
func TestAssemblerCallsAreFound(t *testing.T) {
	dir := t.TempDir()
	src := `package main

import (
	"gatehouse/internal/agent"
	tl "gatehouse/internal/tools"
	"gatehouse/internal/tools/builtin"
)

func f() {
	reg, _ := builtin.Registry(nil, nil)
	_ = agent.New(agent.Config{Tools: tl.NewRouter(reg, tl.Policy{})})
	_ = builtin.Tools(nil, nil)
}
`
	file := filepath.Join(dir, "main.go")
	if err := writeFile(file, src); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(assemblerCalls(t, file, "gatehouse"), ",")
	want := "gatehouse/internal/tools/builtin.Registry,gatehouse/internal/agent.New,gatehouse/internal/tools.NewRouter"
	if got != want {
		t.Errorf("found %s, want %s", got, want)
	}
	inPkg := filepath.Join(dir, "tools.go")
	writeFile(inPkg, "package tools\n\nfunc g() { _ = NewRouter(nil, Policy{}) }\n")
	if got := assemblerCalls(t, inPkg, "gatehouse/internal/tools"); len(got) != 1 {
		t.Errorf("a call inside the package: %v", got)
	}
}

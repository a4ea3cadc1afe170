package runtime

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// assemblers are the constructors only some packages may call outside
// tests and benchmarks (by import path, then name: the packages allowed
// (its own only when listed). A host that calls them builds a session
// by hand, and its sessions drift from the others' (tools, middleware
// order, gate, log, checkpoints, sandbox, MCP servers, agents): sessions
// are assembled by runtime.New, which only the host recipe and the
// child-session factory call; only the recipe sets up agents and builds
// MCP server managers.
var assemblers = map[string]map[string][]string{
	"gatehouse/internal/tools":         {"NewRouter": {"internal/runtime"}},
	"gatehouse/internal/agent":         {"New": {"internal/runtime"}},
	"gatehouse/internal/tools/builtin": {"Registry": {"internal/runtime"}},
	"gatehouse/internal/runtime":       {"New": {"internal/sessionhost", "internal/agents"}},
	"gatehouse/internal/agents":        {"Setup": {"internal/sessionhost"}, "Attach": {"internal/sessionhost", "internal/agents"}},
	"gatehouse/internal/mcp":           {"NewManager": {"internal/sessionhost", "internal/mcp"}, "NewHost": {"internal/sessionhost"}},
}

// TestOnlyTheRecipeAssemblesSessions walks the module's Go source and
// fails on a call of an assembler from a package it is not allowed in,
// tests and benchmarks aside (folders named *bench, benchmark files).
func TestOnlyTheRecipeAssemblesSessions(t *testing.T) {
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
			if name == "node_modules" || name == "frontend" || name == "build" ||
				strings.HasPrefix(name, ".") && rel != "." || strings.HasSuffix(name, "bench") || name == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		checked++
		dir := filepath.ToSlash(filepath.Dir(rel))
		for _, bad := range assemblerCalls(t, path, "gatehouse/"+dir) {
			t.Errorf("%s: calls %s; open sessions with sessionhost.Open (runtime.New assembles them)", rel, bad)
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
	flagged := func(path, name string) bool {
		list, ok := assemblers[path][name]
		return ok && !slices.Contains(list, strings.TrimPrefix(pkg, "gatehouse/"))
	}
	ast.Inspect(f, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		switch fn := c.Fun.(type) {
		case *ast.SelectorExpr:
			if x, ok := fn.X.(*ast.Ident); ok && names[x.Name] != "" && flagged(names[x.Name], fn.Sel.Name) {
				out = append(out, names[x.Name]+"."+fn.Sel.Name)
			}
		case *ast.Ident:
			if flagged(pkg, fn.Name) {
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

	// A host opening a session by hand: runtime, agents and MCP servers.
	host := filepath.Join(dir, "host.go")
	writeFile(host, `package cli

import (
	"gatehouse/internal/agents"
	"gatehouse/internal/mcp"
	"gatehouse/internal/runtime"
)

func open() {
	s, _ := runtime.New(runtime.Options{})
	agents.Setup(s, agents.HostOptions{})
	mcp.NewManager(mcp.Options{}, nil).Start()
}
`)
	got = strings.Join(assemblerCalls(t, host, "gatehouse/internal/cli"), ",")
	want = "gatehouse/internal/runtime.New,gatehouse/internal/agents.Setup,gatehouse/internal/mcp.NewManager"
	if got != want {
		t.Errorf("a host: found %s, want %s", got, want)
	}
	if got := assemblerCalls(t, host, "gatehouse/internal/sessionhost"); len(got) != 0 {
		t.Errorf("the recipe may: %v", got)
	}
	if got := assemblerCalls(t, host, "gatehouse/internal/agents"); len(got) != 2 {
		t.Errorf("the child factory may call runtime.New only: %v", got)
	}
}

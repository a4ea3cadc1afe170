package tools

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
)

// listProvider is a provider whose list can change, as an MCP server's does
// when it restarts.
type listProvider struct {
	name string
	mu   sync.Mutex
	ts   []Tool
}

func (p *listProvider) Name() string { return p.name }
func (p *listProvider) Tools() []Tool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Tool(nil), p.ts...)
}
func (p *listProvider) set(ts ...Tool) { p.mu.Lock(); p.ts = ts; p.mu.Unlock() }

func echoTool(name, reply string) Tool {
	return funcTool{spec: Spec{Name: name, Parameters: json.RawMessage(`{"type":"object"}`)},
		run: func(context.Context, json.RawMessage) (Result, error) { return OK(reply) }}
}

func specNames(rt *Router) string {
	var out []string
	for _, s := range rt.Specs() {
		out = append(out, s.Name)
	}
	return strings.Join(out, ",")
}

func TestSurfaceAddsAndRemovesProviders(t *testing.T) {
	s, err := NewSurface(&upper{})
	if err != nil {
		t.Fatal(err)
	}
	rt := NewRouter(s, Policy{})
	p := &listProvider{name: "mcp a", ts: []Tool{echoTool("a_one", "1"), echoTool("a_two", "2")}}
	if err := s.AddProvider(p); err != nil {
		t.Fatal(err)
	}
	if got := specNames(rt); got != "a_one,a_two,upper" {
		t.Fatalf("surface: %s", got)
	}
	res, err := rt.Run(context.Background(), Call{ID: "1", Name: "a_two"})
	if err != nil || string(res.Output) != `"2"` {
		t.Fatalf("provider tool: %s %v", res.Output, err)
	}
	p.set(echoTool("a_one", "1"))
	if got := specNames(rt); got != "a_one,upper" {
		t.Fatalf("after the provider dropped a tool: %s", got)
	}
	if res, _ := rt.Run(context.Background(), Call{ID: "2", Name: "a_two"}); errCode(t, res) != CodeUnknownTool {
		t.Error("a tool gone from its provider still ran")
	}
	if !s.RemoveProvider("mcp a") || s.RemoveProvider("mcp a") {
		t.Error("RemoveProvider does not report what it removed")
	}
	if got := specNames(rt); got != "upper" {
		t.Fatalf("after removal: %s", got)
	}
}

func TestSurfaceClashAtAddTimeNamesBothSources(t *testing.T) {
	s, _ := NewSurface(&upper{})
	if err := s.AddProvider(&listProvider{name: "mcp a", ts: []Tool{echoTool("shared", "a")}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		p    *listProvider
		want []string
	}{
		{&listProvider{name: "mcp b", ts: []Tool{echoTool("ok_b", ""), echoTool("shared", "b")}}, []string{`"mcp b"`, `"shared"`, `provider "mcp a"`}},
		{&listProvider{name: "mcp c", ts: []Tool{echoTool("upper", "")}}, []string{`"mcp c"`, `"upper"`, BuiltinSource}},
		{&listProvider{name: "mcp a"}, []string{`"mcp a"`, "already added"}},
		{&listProvider{name: "mcp d", ts: []Tool{echoTool("bad name", "")}}, []string{`"mcp d"`, "bad name"}},
	} {
		err := s.AddProvider(c.p)
		if err == nil {
			t.Fatalf("%s was added", c.p.name)
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not say %s", c.p.name, err, w)
			}
		}
	}
	if got := specNames(NewRouter(s, Policy{})); got != "shared,upper" {
		t.Errorf("a refused provider left tools behind: %s", got)
	}
}

func TestSurfaceClashAfterRefreshLeavesTheToolOutAndReportsIt(t *testing.T) {
	s, _ := NewSurface(&upper{})
	a := &listProvider{name: "mcp a", ts: []Tool{echoTool("shared", "a")}}
	b := &listProvider{name: "mcp b", ts: []Tool{echoTool("b_only", "b")}}
	if err := s.AddProvider(a); err != nil {
		t.Fatal(err)
	}
	if err := s.AddProvider(b); err != nil {
		t.Fatal(err)
	}
	rt := NewRouter(s, Policy{})
	// b restarts with a tool named like a's and one named like a built-in.
	b.set(echoTool("b_only", "b"), echoTool("shared", "from b"), echoTool("upper", "from b"))
	if got := specNames(rt); got != "b_only,shared,upper" {
		t.Fatalf("surface: %s", got)
	}
	res, _ := rt.Run(context.Background(), Call{ID: "1", Name: "shared"})
	if string(res.Output) != `"a"` {
		t.Errorf("the clash overrode the earlier tool: %s", res.Output)
	}
	errs := strings.Join(s.ProviderErrors("mcp b"), "\n")
	if !strings.Contains(errs, `tool "shared" left out`) || !strings.Contains(errs, `provider "mcp a"`) ||
		!strings.Contains(errs, `tool "upper" left out`) || !strings.Contains(errs, BuiltinSource) {
		t.Errorf("provider errors: %q", errs)
	}
	if e := s.ProviderErrors("mcp a"); len(e) != 0 {
		t.Errorf("the provider that kept its tool has errors: %v", e)
	}
	b.set(echoTool("b_only", "b"))
	rt.Specs()
	if e := s.ProviderErrors("mcp b"); len(e) != 0 {
		t.Errorf("errors outlived the clash: %v", e)
	}
}

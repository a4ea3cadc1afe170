package tools

import (
	"errors"
	"fmt"
	"sort"
	"sync"
)

// Catalog is the set of tools a Router routes to: a fixed Registry, or a
// Surface whose providers come and go.
type Catalog interface {
	// Lookup returns the tool called name.
	Lookup(name string) (Tool, bool)
	// List returns every tool, sorted by name.
	List() []Tool
}

// BuiltinSource names the built-in tools in clash errors.
const BuiltinSource = "built-in tools"

// Surface is a session's tool surface: its built-in tools plus the tools of
// the providers added at run time. It is read (List, Lookup) before every
// model request and when a call is routed, so a provider added, removed or
// refreshed changes the very next request.
//
// Names are unique by construction. Built-ins come first, then providers in
// the order they were added: AddProvider refuses a provider one of whose
// tools clashes with a name already on the surface (the error names both
// sources); a clash that appears later, when a provider's list changes, leaves
// the later tool out and reports it on its provider (ProviderErrors), never a
// silent override.
//
// A Surface is safe for concurrent use.
type Surface struct {
	builtin *Registry

	mu        sync.RWMutex
	providers []*providerSlot
}

type providerSlot struct {
	p Provider

	mu   sync.Mutex
	errs []string // from the last read of the surface
}

// NewSurface returns a surface of the built-in tools ts and no provider.
func NewSurface(ts ...Tool) (*Surface, error) {
	reg, err := NewRegistry(ts...)
	if err != nil {
		return nil, err
	}
	return &Surface{builtin: reg}, nil
}

// AddProvider adds p's tools to the surface. It fails, adding nothing, when
// a provider of the same name is already there, when one of p's tools is
// invalid (no executor, a bad name or schema), or when a name clashes with
// a tool already on the surface (the error names both sources).
func (s *Surface) AddProvider(p Provider) error {
	if p == nil {
		return errors.New("add provider: nil provider")
	}
	name := p.Name()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, o := range s.providers {
		if o.p.Name() == name {
			return fmt.Errorf("add provider %q: a provider of that name is already added", name)
		}
	}
	taken := map[string]string{}
	for _, t := range s.resolveLocked(false) {
		taken[t.tool.Spec().Name] = t.source
	}
	for _, t := range p.Tools() {
		if err := checkTool(t); err != nil {
			return fmt.Errorf("add provider %q: %w", name, err)
		}
		n := t.Spec().Name
		if src, dup := taken[n]; dup {
			if src == name {
				return fmt.Errorf("add provider %q: it lists tool %q twice", name, n)
			}
			return fmt.Errorf("add provider %q: its tool %q clashes with the tool of that name from %s", name, n, describeSource(src))
		}
		taken[n] = name
	}
	s.providers = append(s.providers, &providerSlot{p: p})
	return nil
}

// RemoveProvider removes the provider called name and its tools. It reports
// whether there was one.
func (s *Surface) RemoveProvider(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, o := range s.providers {
		if o.p.Name() == name {
			s.providers = append(s.providers[:i:i], s.providers[i+1:]...)
			return true
		}
	}
	return false
}

// Providers names the providers on the surface, in the order they were
// added.
func (s *Surface) Providers() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]string, 0, len(s.providers))
	for _, o := range s.providers {
		out = append(out, o.p.Name())
	}
	return out
}

// ProviderErrors returns what the last read of the surface left out of
// provider name's tools, and why (a clash, an invalid tool); nil when
// nothing was left out or there is no such provider.
func (s *Surface) ProviderErrors(name string) []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, o := range s.providers {
		if o.p.Name() == name {
			o.mu.Lock()
			defer o.mu.Unlock()
			return append([]string(nil), o.errs...)
		}
	}
	return nil
}

// List implements Catalog: the tools on the surface now, sorted by name.
func (s *Surface) List() []Tool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ts := s.resolveLocked(true)
	out := make([]Tool, len(ts))
	for i, t := range ts {
		out[i] = t.tool
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Spec().Name < out[j].Spec().Name })
	return out
}

// Lookup implements Catalog.
func (s *Surface) Lookup(name string) (Tool, bool) {
	if t, ok := s.builtin.Lookup(name); ok {
		return t, true
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	// What resolveLocked would keep under this name, without checking every
	// other tool's schema on each call: the first provider's valid tool of
	// that name (built-ins were looked up above).
	for _, o := range s.providers {
		for _, t := range o.p.Tools() {
			if t != nil && t.Spec().Name == name && checkTool(t) == nil {
				return t, true
			}
		}
	}
	return nil, false
}

type sourced struct {
	tool   Tool
	source string
}

// resolveLocked lists the surface: built-ins, then each provider's current
// tools that are valid and not yet taken. With record, what is left out is
// recorded on its provider (replacing what the previous read recorded).
func (s *Surface) resolveLocked(record bool) []sourced {
	var out []sourced
	taken := map[string]string{}
	for _, t := range s.builtin.List() {
		out = append(out, sourced{t, BuiltinSource})
		taken[t.Spec().Name] = BuiltinSource
	}
	for _, o := range s.providers {
		name := o.p.Name()
		var errs []string
		for _, t := range o.p.Tools() {
			if err := checkTool(t); err != nil {
				errs = append(errs, err.Error()+"; left out")
				continue
			}
			n := t.Spec().Name
			if src, dup := taken[n]; dup {
				errs = append(errs, fmt.Sprintf("tool %q left out: its name clashes with the tool of that name from %s", n, describeSource(src)))
				continue
			}
			taken[n] = name
			out = append(out, sourced{t, name})
		}
		if record {
			o.mu.Lock()
			o.errs = errs
			o.mu.Unlock()
		}
	}
	return out
}

func describeSource(src string) string {
	if src == BuiltinSource {
		return src
	}
	return fmt.Sprintf("provider %q", src)
}

// checkTool is what Register checks of a tool, without registering it.
func checkTool(t Tool) error {
	if t == nil {
		return errors.New("a nil tool (a spec needs an executor)")
	}
	return checkSpec(t.Spec())
}

package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"
)

// RunFunc runs one call of a custom tool.
type RunFunc func(ctx context.Context, args json.RawMessage) (Result, error)

// Registry lists the tools a session may show the model. A tool is registered
// with its spec and its executor together: one without the other is an error,
// so a tool the model sees always has an executor.
//
// A Registry is safe for concurrent use.
type Registry struct {
	mu    sync.RWMutex
	tools map[string]Tool
}

// NewRegistry returns a registry holding ts.
func NewRegistry(ts ...Tool) (*Registry, error) {
	r := &Registry{tools: map[string]Tool{}}
	for _, t := range ts {
		if err := r.Register(t); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// validName reports whether name matches ^[a-zA-Z0-9_-]{1,64}$. Not a
// regexp: compiling the bounded repeat cost every process start-up time.
func validName(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// Register adds t. Names are unique and must fit the model APIs' rules.
func (r *Registry) Register(t Tool) error {
	if t == nil {
		return errors.New("register: nil tool (a spec needs an executor)")
	}
	spec := t.Spec()
	if err := checkSpec(spec); err != nil {
		return fmt.Errorf("register: %w", err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.tools[spec.Name]; dup {
		return fmt.Errorf("register: tool %q is already registered", spec.Name)
	}
	r.tools[spec.Name] = t
	return nil
}

// checkSpec checks what the model APIs require of a tool's spec.
func checkSpec(spec Spec) error {
	if !validName(spec.Name) {
		return fmt.Errorf("tool name %q must be 1-64 letters, digits, _ or -", spec.Name)
	}
	if len(spec.Parameters) > 0 {
		var schema map[string]any
		if err := json.Unmarshal(spec.Parameters, &schema); err != nil || schema["type"] != "object" {
			return fmt.Errorf("tool %s: parameters must be a JSON Schema object", spec.Name)
		}
	}
	return nil
}

// Add registers a custom tool from its spec and executor.
func (r *Registry) Add(spec Spec, run RunFunc) error {
	if run == nil {
		return fmt.Errorf("register %s: a spec without an executor", spec.Name)
	}
	return r.Register(funcTool{spec: spec, run: run})
}

// Lookup returns the tool called name.
func (r *Registry) Lookup(name string) (Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.tools[name]
	return t, ok
}

// List implements Catalog: every registered tool, sorted by name.
func (r *Registry) List() []Tool {
	r.mu.RLock()
	out := make([]Tool, 0, len(r.tools))
	for _, t := range r.tools {
		out = append(out, t)
	}
	r.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Spec().Name < out[j].Spec().Name })
	return out
}

type funcTool struct {
	spec Spec
	run  RunFunc
}

func (f funcTool) Spec() Spec { return f.spec }
func (f funcTool) Run(ctx context.Context, args json.RawMessage) (Result, error) {
	return f.run(ctx, args)
}

// ReadOnlyCall reports whether this call of t only reads: the tool's own
// per-call answer when it has one, else its spec.
func ReadOnlyCall(t Tool, args json.RawMessage) bool {
	if c, ok := t.(CallClassifier); ok {
		return c.ReadOnlyCall(args)
	}
	return t.Spec().ReadOnly
}

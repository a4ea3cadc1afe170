package tools

import (
	"context"
	"encoding/json"
	"fmt"
)

// DefaultMaxArgsBytes caps the arguments of one call.
const DefaultMaxArgsBytes = 1 << 20

// Router sends each call to its tool's executor through the policy check and
// the middleware chain. A call the model got wrong (unknown tool, tool not
// allowed, malformed or oversized arguments) becomes an error result the
// model reads; the turn goes on.
//
// The catalog is read on every Specs and Run, so a Surface whose providers
// change is routed as it is now.
type Router struct {
	cat          Catalog
	policy       Policy
	mws          []Middleware
	MaxArgsBytes int
	// Narrow (may be nil) is read on every Specs, Lookup and Run and
	// intersected with the policy: what the session's approval mode allows
	// now (plan mode offers only reading tools).
	Narrow func() Policy
	// Scope (may be nil) adds to each call's context what executors shared
	// between sessions need to know of the session running it (WithOwner).
	Scope func(context.Context) context.Context
}

// now is the policy in effect for this request or call: the session's,
// and what Narrow allows now, each on its own.
func (r *Router) now() interface{ Allows(Tool) bool } {
	if r.Narrow == nil {
		return r.policy
	}
	return both{r.policy, r.Narrow()}
}

type both [2]Policy

func (b both) Allows(t Tool) bool { return b[0].Allows(t) && b[1].Allows(t) }

// NewRouter routes calls to the tools of cat that policy allows, wrapped in
// mws (first listed outermost). Sessions get theirs from internal/runtime.
func NewRouter(cat Catalog, policy Policy, mws ...Middleware) *Router {
	return &Router{cat: cat, policy: policy, mws: mws, MaxArgsBytes: DefaultMaxArgsBytes}
}

// Specs lists what the model sees now, sorted by name.
func (r *Router) Specs() []Spec {
	var out []Spec
	p := r.now()
	for _, t := range r.cat.List() {
		if p.Allows(t) {
			out = append(out, t.Spec())
		}
	}
	return out
}

// Lookup returns the tool a call names, if the policy allows it.
func (r *Router) Lookup(name string) (Tool, bool) {
	t, ok := r.cat.Lookup(name)
	if !ok || !r.now().Allows(t) {
		return nil, false
	}
	return t, true
}

// Run runs call. The returned error is an infrastructure failure only.
func (r *Router) Run(ctx context.Context, call Call) (Result, error) {
	t, ok := r.cat.Lookup(call.Name)
	if !ok {
		return Fail(CodeUnknownTool, fmt.Sprintf("unknown tool %q; available tools: %s", call.Name, names(r.Specs())), ""), nil
	}
	if r.MaxArgsBytes > 0 && len(call.Args) > r.MaxArgsBytes {
		return Fail(CodeInvalidArguments, fmt.Sprintf("arguments of %s are %d bytes, over the %d-byte limit", call.Name, len(call.Args), r.MaxArgsBytes), ""), nil
	}
	if len(call.Args) == 0 {
		call.Args = json.RawMessage("{}")
	}
	if !json.Valid(call.Args) {
		return Fail(CodeInvalidArguments, fmt.Sprintf("arguments of %s are not valid JSON: %.200s", call.Name, call.Args), ""), nil
	}
	if p := r.now(); !p.Allows(t) {
		if r.policy.Allows(t) {
			return Fail(CodeToolNotAllowed, fmt.Sprintf("tool %s is not offered in the current approval mode (plan mode offers only tools that read, and propose_plan)", call.Name), ""), nil
		}
		return Fail(CodeToolNotAllowed, fmt.Sprintf("tool %s is not allowed in this session", call.Name), ""), nil
	}
	if r.Scope != nil {
		ctx = r.Scope(ctx)
	}
	return Chain(t, r.mws...)(WithCall(ctx, call), call)
}

func names(specs []Spec) string {
	s := ""
	for i, sp := range specs {
		if i > 0 {
			s += ", "
		}
		s += sp.Name
	}
	return s
}

type callKey struct{}

// WithCall records the call being run in ctx, for executors and middleware
// that need its id (approval, process ownership).
func WithCall(ctx context.Context, c Call) context.Context {
	return context.WithValue(ctx, callKey{}, c)
}

// CallFrom returns the call recorded in ctx.
func CallFrom(ctx context.Context) (Call, bool) {
	c, ok := ctx.Value(callKey{}).(Call)
	return c, ok
}

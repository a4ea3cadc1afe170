package tools

import "encoding/json"

// Policy answers "may this session use this tool at all?". The zero value
// allows every tool.
type Policy struct {
	// Allowed, when non-nil, lists the only tool names the session may use.
	Allowed map[string]bool
	// ReadOnly limits the session to calls that only read: read-only tools
	// are shown, tools that classify per call (bash) are shown but only their
	// read-only calls run.
	ReadOnly bool
}

// AllowOnly returns a policy that permits just the named tools.
func AllowOnly(names ...string) Policy {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return Policy{Allowed: m}
}

// ReadOnlyPreset is the policy of a read-only session (a reviewer, a child
// agent that only looks).
func ReadOnlyPreset() Policy { return Policy{ReadOnly: true} }

// Shows reports whether the model sees t at all.
func (p Policy) Shows(t Tool) bool {
	spec := t.Spec()
	if p.Allowed != nil && !p.Allowed[spec.Name] {
		return false
	}
	if p.ReadOnly {
		_, perCall := t.(CallClassifier)
		return spec.ReadOnly || perCall
	}
	return true
}

// Permits reports whether this call may run under p.
func (p Policy) Permits(t Tool, args json.RawMessage) bool {
	if !p.Shows(t) {
		return false
	}
	return !p.ReadOnly || ReadOnlyCall(t, args)
}

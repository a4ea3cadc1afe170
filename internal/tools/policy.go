package tools

// Policy answers one question: may this session use this tool? The answer
// is per tool, never per call, so a tool the model is shown always runs (the
// approval gate may still ask), and a tool it is not shown is refused by name
// with tool_not_allowed. Whether one call only reads is the approval mode's
// business (safe runs reading calls unasked), not the policy's.
//
// The zero value allows every tool (the main agent). A child session's
// policy is its definition's intersected with its parent's (Intersect).
type Policy struct {
	// Allowed, when non-nil, lists the only tool names the session may use.
	Allowed map[string]bool
	// ReadOnly keeps only the tools whose every call reads (Spec.ReadOnly).
	// A tool that classifies per call (bash: status and logs read, exec
	// acts) is left out: a read-only session starts no process, so it has
	// none to read either.
	ReadOnly bool
	// ReadOnlyExcept names tools allowed although they do not only read,
	// when ReadOnly is set (plan mode offers web_fetch, which asks as in
	// safe). Intersect does not carry it: a narrower policy never gains it.
	ReadOnlyExcept map[string]bool
	// Denied names tools the session may not use, whatever else allows
	// them (propose_plan outside plan mode).
	Denied map[string]bool
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
// agent that only looks): the tools whose spec says they only read.
func ReadOnlyPreset() Policy { return Policy{ReadOnly: true} }

// Allows reports whether the session may see and run t.
func (p Policy) Allows(t Tool) bool {
	spec := t.Spec()
	if p.Allowed != nil && !p.Allowed[spec.Name] || p.Denied[spec.Name] {
		return false
	}
	return !p.ReadOnly || spec.ReadOnly || p.ReadOnlyExcept[spec.Name]
}

// Intersect returns the policy allowing what both p and q allow: a child
// session never gets a tool its parent may not use.
func (p Policy) Intersect(q Policy) Policy {
	out := Policy{ReadOnly: p.ReadOnly || q.ReadOnly}
	for _, d := range []map[string]bool{p.Denied, q.Denied} {
		for n, ok := range d {
			if ok {
				if out.Denied == nil {
					out.Denied = map[string]bool{}
				}
				out.Denied[n] = true
			}
		}
	}
	switch {
	case p.Allowed == nil:
		out.Allowed = q.Allowed
	case q.Allowed == nil:
		out.Allowed = p.Allowed
	default:
		out.Allowed = map[string]bool{}
		for n, ok := range p.Allowed {
			if ok && q.Allowed[n] {
				out.Allowed[n] = true
			}
		}
	}
	return out
}

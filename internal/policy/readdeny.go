package policy

import (
	"slices"

	"gatehouse/internal/approval"
	"gatehouse/internal/workspace"
)

// ReadDeny is one workspace-relative path glob (`**` any folders) the
// user's policy denies reading, and the rule that says so.
type ReadDeny struct {
	Glob string                `json:"glob"`
	Rule approval.StandingRule `json:"rule"`
}

// ReadDenies answers which workspace paths the policy's rules deny for
// reading, by every route: each deny rule with paths (access read or any)
// or with files on a reading tool (read_file, view_image, list_dir, glob,
// grep, or a tool pattern covering one), one entry per glob, each glob
// once, in the rules' order. The file tools' boundary (Deny) and the
// commands' sandbox (sandbox.Spec.DenyGlobs) hide exactly these.
func ReadDenies(rules []approval.StandingRule) []ReadDeny {
	var out []ReadDeny
	for _, r := range rules {
		if r.Decision != approval.VerdictDeny || !r.ReadsPaths() {
			continue
		}
		for _, g := range r.Files {
			if !slices.ContainsFunc(out, func(d ReadDeny) bool { return d.Glob == g }) {
				out = append(out, ReadDeny{Glob: g, Rule: r})
			}
		}
	}
	return out
}

// ReadDenyGlobs are the globs of ReadDenies over every rule of p.
func ReadDenyGlobs(p Policy) []string {
	var out []string
	for _, d := range ReadDenies(p.Rules) {
		out = append(out, d.Glob)
	}
	return out
}

// Deny is the workspace boundary's predicate for the policy of s: a read
// of a path a deny rule names is refused, with the rule in words. It reads
// the policy on every call (Source reloads a changed file), so an edit
// applies to the next call without a restart. Writes are the gate's to
// decide (every write is planned).
func (s *Source) Deny() workspace.DenyFunc {
	return func() workspace.Deny { return DenyOf(s.Policy().Rules) }
}

// DenyOf is the boundary's predicate for rules: nil when none denies a
// read.
func DenyOf(rules []approval.StandingRule) workspace.Deny {
	denies := ReadDenies(rules)
	if len(denies) == 0 {
		return nil
	}
	rs := make([]approval.StandingRule, 0, len(denies))
	for _, d := range denies {
		rs = append(rs, d.Rule)
	}
	return func(rel string, access workspace.Access) string {
		if access != workspace.Read {
			return ""
		}
		r, ok := approval.ReadDenied(rs, rel)
		if !ok {
			return ""
		}
		return approval.Explain(approval.VerdictDeny, []approval.StandingRule{r}).Why
	}
}

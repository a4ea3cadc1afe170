package policy

import (
	"path"
	"slices"

	"gatehouse/internal/approval"
)

// ReadTool is the tool whose file-scoped deny rules are read denies.
const ReadTool = "read_file"

// ReadDeny is one path glob the standing policy denies reading, with the
// rule that denies it.
type ReadDeny struct {
	// Glob is workspace-relative, as the rule wrote it (`**` any folders).
	Glob string
	Rule approval.StandingRule
}

// ReadDenies are the workspace-relative path globs the policy p denies
// for reading, each with its rule, in the rules' order, each glob once: a
// deny rule with files on read_file (or on a tool pattern that covers it,
// "*") denies reading them by every route, commands included (the
// sandbox hides them, see sandbox.Spec.DenyGlobs).
func ReadDenies(p Policy) []ReadDeny {
	var out []ReadDeny
	for _, r := range p.All() {
		if r.Decision != approval.VerdictDeny || len(r.Files) == 0 {
			continue
		}
		if ok, _ := path.Match(r.Tool, ReadTool); !ok {
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

// ReadDenyGlobs are the globs of ReadDenies(p).
func ReadDenyGlobs(p Policy) []string {
	var out []string
	for _, d := range ReadDenies(p) {
		out = append(out, d.Glob)
	}
	return out
}

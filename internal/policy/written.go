package policy

import (
	"fmt"
	"strings"

	"gatehouse/internal/approval"
)

// New checks wr's words and makes it a rule to save (Add, Replace); the
// rest is checked with the whole file before anything is written.
func (wr Written) New() (New, error) {
	v, err := approval.ParseVerdict(wr.Decision)
	if err != nil {
		return New{}, err
	}
	n := New{Decision: v, Patterns: true, Reason: strings.TrimSpace(wr.Reason), Examples: trimmed(wr.Match), Counter: trimmed(wr.NotMatch)}
	n.Rule.Tool, n.Rule.Action, n.Rule.Cwd = strings.TrimSpace(wr.Tool), wr.Action, strings.TrimSpace(wr.Cwd)
	n.Rule.Files, n.Rule.Domain = trimmed(wr.Files), strings.TrimSpace(wr.Domain)
	n.Access = strings.TrimSpace(wr.Access)
	if paths := trimmed(wr.Paths); len(paths) > 0 {
		if n.Rule.Tool != "" && n.Rule.Tool != "*" {
			return New{}, fmt.Errorf("paths are for every tool: leave tool out (or write files on %s)", n.Rule.Tool)
		}
		if len(trimmed(wr.Files)) > 0 || len(trimmed(wr.Commands)) > 0 {
			return New{}, fmt.Errorf("a rule with paths names nothing else: paths are for every tool")
		}
		n.Rule.Files, n.Paths = paths, true
		if n.Rule.Tool == "" {
			n.Rule.Tool = "*"
		}
	}
	for _, c := range trimmed(wr.Commands) {
		words, err := approval.CommandPattern(c)
		if err != nil {
			return New{}, err
		}
		n.Rule.Commands = append(n.Rule.Commands, words)
	}
	if n.Rule.Tool == "" {
		return New{}, fmt.Errorf("tool is required (bash, apply_patch, mcp__server__tool, …), or paths for every tool")
	}
	return n, nil
}

func trimmed(ss []string) []string {
	var out []string
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// WrittenOf is rule r as the form shows it to edit: every field it was
// written with, its examples included, so saving it unchanged loses nothing.
func WrittenOf(r approval.StandingRule) Written {
	w := Written{ID: r.ID, Decision: string(r.Decision), Tool: r.Tool, Files: r.Files, Action: r.Action, Cwd: r.Cwd, Domain: r.Domain, Reason: r.Reason,
		Match: r.Match, NotMatch: r.NotMatch}
	for _, c := range r.Commands {
		w.Commands = append(w.Commands, approval.PatternText(c))
	}
	if r.Tool == "*" && r.Access != "" {
		w.Tool, w.Paths, w.Files = "", r.Files, nil
	}
	w.Access = r.Access
	return w
}

package policy

import (
	"strings"

	"gatehouse/internal/approval"
	"gatehouse/internal/workspace"
)

// Route is what a turn would do with one path on one route (the Policy
// page's "test a path", `policy check --tool read_file`).
type Route = approval.Route

// PathRoutes is the verdict of rules on workspace path p by every route:
// read_file (the gate's verdict, as Check gives it), grep, glob and
// list_dir (the boundary leaves a denied path out), commands (the
// sandbox hides a denied path from them), and what stays open whatever
// the rules say.
func PathRoutes(rules []approval.StandingRule, ws *workspace.Workspace, p string) (routes []Route, open []string) {
	d := approval.CheckCall(rules, ws, "read_file", p)
	routes = append(routes, Route{Route: "read_file", Verdict: d.Verdict, Why: d.Why})
	var denied *approval.StandingRule
	if abs, err := ws.ResolveForPlan(p, workspace.Read); err == nil {
		if r, ok := approval.ReadDenied(rules, ws.Rel(abs)); ok {
			denied = &r
		}
	}
	if denied != nil {
		why := approval.Explain(approval.VerdictDeny, []approval.StandingRule{*denied}).Why
		routes = append(routes,
			Route{Route: "grep, glob, list_dir", Verdict: approval.VerdictDeny, Why: "left out of their results, which say how many were hidden: " + why},
			Route{Route: "apply_patch, write_file", Verdict: approval.VerdictDeny, Why: "a change that starts from its content (an edit, a move, a delete, a write over it) reads it, and its diff would show it: refused; creating it where it does not exist is a write only: " + why},
			Route{Route: "commands", Verdict: approval.VerdictDeny, Why: "the sandbox hides it from every command (where a layer cannot hide it, the command's card says so): " + why})
	} else {
		g := approval.CheckCall(rules, ws, "grep", p)
		routes = append(routes,
			Route{Route: "grep, glob, list_dir", Verdict: g.Verdict, Why: g.Why},
			Route{Route: "commands", Verdict: approval.VerdictNone, Why: "no read deny names it: a command reads it as any workspace file"})
	}
	open = []string{
		"git's objects: a committed copy stays readable through git (git show HEAD:" + strings.TrimPrefix(p, "./") + ")",
		"your own MCP servers (not the workspace's) run unconfined and may read it",
	}
	return routes, open
}

// CommandReads names the words of command line that are paths a read
// deny of rules hides from commands, with the rule's words: what the
// sandbox will do with them.
func CommandReads(rules []approval.StandingRule, ws *workspace.Workspace, line string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(line, func(r rune) bool { return strings.ContainsRune(" \t\n;&|<>()'\"`=", r) }) {
		abs, err := ws.ResolveForPlan(w, workspace.Read)
		if err != nil {
			continue
		}
		if r, ok := approval.ReadDenied(rules, ws.Rel(abs)); ok {
			out = append(out, w+": the sandbox hides it from the command, so the command cannot read it ("+
				approval.Explain(approval.VerdictDeny, []approval.StandingRule{r}).Why+")")
		}
	}
	return out
}

// ReadingTool reports whether tool reads the path it is given (read_file,
// view_image, list_dir, glob, grep): its file rules are read rules.
func ReadingTool(tool string) bool {
	r := approval.StandingRule{}
	r.Tool, r.Files = tool, []string{"x"}
	return r.ReadsPaths()
}

// CheckAll is approval.CheckCall with what "test a path" adds: for a
// reading tool and a path, every route's verdict and what stays open; for
// a command line, the words the sandbox hides from it.
func CheckAll(rules []approval.StandingRule, ws *workspace.Workspace, tool, target string) approval.Decided {
	d := approval.CheckCall(rules, ws, tool, target)
	switch {
	case tool == "" || tool == "bash":
		d.Sandbox = CommandReads(rules, ws, target)
	case target != "" && approval.URLDomain(target) == "" && ReadingTool(tool):
		d.Routes, d.StaysOpen = PathRoutes(rules, ws, target)
	}
	return d
}

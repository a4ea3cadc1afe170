package approval

import (
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"gatehouse/internal/netproxy"
	"gatehouse/internal/protocol"
	"gatehouse/internal/workspace"
)

// Decided is the standing policy's answer for one call, with the rules
// that gave it.
type Decided struct {
	Verdict Verdict        `json:"decision"`
	Rules   []StandingRule `json:"rules,omitempty"`
	// Why says it in a sentence ("denied by rule p-1 in the user policy
	// (…/policy.toml): reason").
	Why string `json:"why"`
}

// lineKeys are the standing keys of bash line run with action in cwd, in
// a workspace at root seen through b.
func lineKeys(line, cwd, root, action string, b Boundary) standingKeys {
	sl := analyzeShell(line, cwd, b)
	k := standingKeys{keys: keys{kind: keyNone, action: action, cwd: cwd}, rel: relTo(root, cwd)}
	if sl.plain {
		k.keys = keys{kind: keyCommands, calls: sl.calls, action: action, cwd: cwd}
	}
	k.opaque = sl.parseErr != ""
	for _, s := range sl.segments {
		k.segs = append(k.segs, s.Args)
		k.opaque = k.opaque || s.Opaque
	}
	return k
}

func relTo(root, dir string) string {
	if root == "" {
		return dir
	}
	r, err := filepath.Rel(root, dir)
	if err != nil {
		return dir
	}
	return filepath.ToSlash(r)
}

// CheckCall decides a call of tool by rules, as the gate would: for bash,
// target is the command line (run in the workspace root); for another
// tool, the URL it fetches (web_fetch: an http or https URL), the
// workspace-relative path it touches, or "" for the tool as a whole (an
// MCP tool). Which rule decides, and why.
func CheckCall(rules []StandingRule, ws *workspace.Workspace, tool, target string) Decided {
	if tool == "" || tool == "bash" {
		return CheckCommand(rules, ws, "", target)
	}
	k := standingKeys{keys: keys{kind: keyTool}}
	if d := URLDomain(target); d != "" {
		k.keys = keys{kind: keyDomain, items: []string{d}}
	} else if target != "" {
		p := filepath.ToSlash(filepath.Clean(target))
		if filepath.IsAbs(target) {
			p = relTo(ws.Root(), target)
		}
		k.keys = keys{kind: keyFiles, items: []string{p}}
	}
	return explain(decideStanding(own(rules), tool, k))
}

// CheckCommand decides bash line (exec, in folder cwd of workspace ws) by
// rules: which rule decides, and why.
func CheckCommand(rules []StandingRule, ws *workspace.Workspace, cwd, line string) Decided {
	if cwd == "" {
		cwd = ws.Root()
	}
	k := lineKeys(line, cwd, ws.Root(), "exec", ws)
	return explain(decideStanding(own(rules), "bash", k))
}

func explain(v Verdict, used []StandingRule) Decided {
	d := Decided{Verdict: v, Rules: used}
	switch v {
	case VerdictNone:
		d.Why = "no standing rule decides: the approval mode does"
		return d
	case VerdictAllow:
		var names []string
		for _, r := range used {
			names = append(names, r.describe())
		}
		d.Why = "allowed by " + strings.Join(names, " and ")
		return d
	}
	d.Why = string(v) + " by " + used[0].describe()
	if used[0].Reason != "" {
		d.Why += ": " + used[0].Reason
	}
	return d
}

// describe names r: its id, layer and file.
func (r StandingRule) describe() string {
	s := fmt.Sprintf("rule %s in the %s policy", r.ID, r.Layer)
	if r.File != "" {
		s += " (" + r.File + ")"
	}
	return s
}

// lexical is a Boundary for checking examples without a workspace on
// disk: every path under root is inside, .git included for reading.
type lexical struct{ root string }

func (l lexical) Resolve(p string, _ workspace.Access) (string, error) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(l.root, p)
	}
	p = filepath.Clean(p)
	if p != l.root && !strings.HasPrefix(p, l.root+string(filepath.Separator)) {
		return "", errors.New("outside")
	}
	return p, nil
}

// exampleRoot is where examples run: a made-up workspace, so an example
// reads the same on every machine.
const exampleRoot = "/gatehouse-example"

// URLDomain is the domain a web_fetch call of URL s is about, as the tool
// names it: the host, lower case, without port or trailing dot; "" when s
// is not an http or https URL with a host.
func URLDomain(s string) string {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	return netproxy.Normalize(u.Hostname())
}

// Matches reports whether r alone decides example: a command line for a
// rule with commands (run in the rule's folder), a workspace-relative
// path for a rule with files, a URL for a rule with a domain, the tool's
// name for a rule of a whole tool.
// For allow, every part of the example must be covered; for ask and deny,
// any part.
func (r StandingRule) Matches(example string) bool {
	switch {
	case len(r.Commands) > 0:
		cwd := exampleRoot
		if r.Cwd != "" {
			cwd = filepath.Join(exampleRoot, filepath.FromSlash(r.Cwd))
		}
		action := r.Action
		if action == "" {
			action = "exec"
		}
		k := lineKeys(example, cwd, exampleRoot, action, lexical{exampleRoot})
		return r.decides(r.Tool, k)
	case len(r.Files) > 0:
		return r.decides(r.Tool, standingKeys{keys: keys{kind: keyFiles, items: []string{example}}})
	case r.Domain != "":
		return r.decides(r.Tool, standingKeys{keys: keys{kind: keyDomain, items: []string{URLDomain(example)}}})
	}
	return r.decides(example, standingKeys{keys: keys{kind: keyTool}})
}

// decides reports whether r alone gives its decision on call k of tool.
func (r StandingRule) decides(tool string, k standingKeys) bool {
	v, _ := decideStanding([]StandingRule{r}, tool, k)
	return v == r.Decision
}

// Offer is the rule approving bash line (exec in cwd) offers, exact as
// the dialog's; nil when the line cannot make one (not plain).
func Offer(ws *workspace.Workspace, cwd, line string) *protocol.Rule {
	if cwd == "" {
		cwd = ws.Root()
	}
	sl := analyzeShell(line, cwd, ws)
	if !sl.plain {
		return nil
	}
	return proposal("bash", keys{kind: keyCommands, calls: sl.calls, action: "exec", cwd: cwd})
}

package approval

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gatehouse/internal/netproxy"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
	"gatehouse/internal/workspace"
)

// Decided is the standing policy's answer for one call, with the rules
// that gave it.
type Decided struct {
	Verdict Verdict        `json:"decision"`
	Rules   []StandingRule `json:"rules,omitempty"`
	// By and Source say who decided (Decide): the standing policy, the
	// session's rules, a verdict layer (Source names it) or the mode.
	By     DecidedBy `json:"by,omitempty"`
	Source string    `json:"source,omitempty"`
	// Routes, StaysOpen and Sandbox are what "test a path" adds (policy
	// check of a reading tool on a path, or of a command line): every
	// route's verdict, what stays open whatever the rules say, and the
	// words of a command the sandbox hides from it.
	Routes    []Route  `json:"routes,omitempty"`
	StaysOpen []string `json:"staysOpen,omitempty"`
	Sandbox   []string `json:"sandbox,omitempty"`
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

// CheckCall decides a call of tool by the standing rules, as the gate
// would (Check, on the plan the tool would make): for bash, target is the
// command line (run in the workspace root); for another tool, the URL it
// fetches (web_fetch: an http or https URL), the workspace-relative path
// it touches (a reading tool reads it, another changes it), or "" for the
// tool as a whole (an MCP tool). Which rule decides, and why.
func CheckCall(rules []StandingRule, ws *workspace.Workspace, tool, target string) Decided {
	return CheckMode(rules, ws, tool, target, "")
}

// CheckMode is CheckCall in approval mode ("": the rules only).
func CheckMode(rules []StandingRule, ws *workspace.Workspace, tool, target string, mode Mode) Decided {
	if tool == "" {
		tool = "bash"
	}
	prep, args, err := PlanTarget(ws, tool, "", target)
	if err != nil {
		return Decided{Verdict: VerdictDeny, By: ByBoundary, Why: "the workspace boundary refuses it: " + err.Error()}
	}
	return Check(rules, ws, tool, args, prep, mode)
}

// Route is what a turn would do with one path on one route (read_file;
// grep, glob and list_dir; commands).
type Route struct {
	Route   string  `json:"route"`
	Verdict Verdict `json:"decision"`
	Why     string  `json:"why"`
}

// ByBoundary: the workspace boundary refuses the call before any rule is
// read (policy check only: the tool returns the refusal itself).
const ByBoundary DecidedBy = "boundary"

// PlanTarget is the plan tool would make of a call on target (see
// CheckCall; cwd is a bash line's folder, "" the root), and the
// arguments of that call.
func PlanTarget(ws *workspace.Workspace, tool, cwd, target string) (*tools.Prepared, json.RawMessage, error) {
	if tool == "bash" {
		if cwd == "" {
			cwd = ws.Root()
		}
		args, _ := json.Marshal(map[string]string{"action": "exec", "command": target})
		return &tools.Prepared{Command: &protocol.CommandPreview{Action: "exec", Command: target, Cwd: cwd}}, args, nil
	}
	if d := URLDomain(target); d != "" {
		args, _ := json.Marshal(map[string]string{"url": target})
		return &tools.Prepared{Web: &protocol.WebPreview{URL: target, Domain: d}, Acts: true}, args, nil
	}
	if target == "" {
		return &tools.Prepared{Acts: true}, json.RawMessage(`{}`), nil
	}
	args, _ := json.Marshal(map[string]string{"path": target})
	if slices.Contains(readingTools, tool) {
		abs, err := ws.ResolveForPlan(target, workspace.Read)
		if err != nil {
			return nil, nil, err
		}
		return &tools.Prepared{Reads: []string{ws.Rel(abs)}}, args, nil
	}
	abs, err := ws.ResolveForPlan(target, workspace.Write)
	if err != nil {
		return nil, nil, err
	}
	rel := ws.Rel(abs)
	prep := &tools.Prepared{Paths: []string{rel}, Files: []protocol.FilePreview{{Path: rel}}}
	if fi, err := os.Stat(abs); err == nil && fi.Mode().IsRegular() {
		// A change of a file that exists starts from its content (the
		// diff the model is sent shows it), as the write tools plan it.
		prep.Reads = []string{rel}
	}
	return prep, args, nil
}

// CheckCommand decides bash line (exec, in folder cwd of workspace ws) by
// rules: which rule decides, and why.
func CheckCommand(rules []StandingRule, ws *workspace.Workspace, cwd, line string) Decided {
	prep, args, _ := PlanTarget(ws, "bash", cwd, line)
	return Check(rules, ws, "bash", args, prep, "")
}

// Explain is the decision v by rules used, with why in a sentence.
func Explain(v Verdict, used []StandingRule) Decided { return explain(v, used) }

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
	case len(r.Files) > 0 && r.Decision != VerdictAllow && (r.Access != "" || r.reads()):
		return r.touchesPaths(CallPlan{Reads: []string{example}, Writes: []string{example}})
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

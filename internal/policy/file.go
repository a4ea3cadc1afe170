// Package policy is the standing policy: rules that outlive a session,
// in TOML files in layers, and the audit log of every call decided without
// a person (see DESIGN.md, "Approval").
//
// Layers, each a file:
//
//   - user: policy.toml in Gatehouse's config folder, for every workspace;
//   - workspace: policy.d/<key>.toml in the same folder, for one workspace
//     keyed by its real path (the user's decision about that folder, never
//     stored inside it);
//   - project: the workspace's own .gatehouse/policy.toml, read only once
//     the user trusts it (trust kind "policy", kept with its content hash),
//     and only able to tighten: a file with an allow rule is refused whole.
//
// A rule is the session rules' exact scope made durable
// (approval.StandingRule): deny beats ask beats allow whatever the layer,
// and a deny holds in every approval mode. There is no built-in layer:
// what safe runs unasked and plan mode offers is what a call's plan says
// (it only reads), decided by approval.Decide, not a list of tools. A file that does not parse, has
// an unknown key, or a rule whose match/not_match example fails, loads
// nothing, and its error names the file and line.
//
// The format is TOML (github.com/BurntSushi/toml: no dependencies, strict
// decoding with the undecoded keys reported, parse errors with line and
// column): people write these files by hand and comment them, which JSON
// does not allow, and TOML has no YAML's implicit typing.
package policy

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"

	"gatehouse/internal/approval"
	"gatehouse/internal/netproxy"
	"gatehouse/internal/tools/web"

	"github.com/BurntSushi/toml"
)

// Layer names.
const (
	LayerUser      = "user"
	LayerWorkspace = "workspace"
	LayerProject   = "project"
)

// Written is one [[rule]] as written in a file, or in the window's form
// (commands as shell text).
type Written struct {
	ID       string   `toml:"id" json:"id,omitempty"`
	Decision string   `toml:"decision" json:"decision"`
	Tool     string   `toml:"tool" json:"tool"`
	Commands []string `toml:"commands" json:"commands,omitempty"`
	Files    []string `toml:"files" json:"files,omitempty"`
	// Paths (deny and ask rules, no tool) are path globs the rule is
	// about for every tool, with Access: read, write or any (the default:
	// both). A rule with files on a reading tool (read_file, grep, …) is
	// a read rule of those paths for every tool too.
	Paths  []string `toml:"paths" json:"paths,omitempty"`
	Access string   `toml:"access" json:"access,omitempty"`
	Action string   `toml:"action" json:"action,omitempty"`
	Cwd    string   `toml:"cwd" json:"cwd,omitempty"`
	// Domain (web_fetch) is the host whose URLs the rule is about:
	// exactly, or "*.example.com" for the names below example.com only.
	Domain   string   `toml:"domain" json:"domain,omitempty"`
	Reason   string   `toml:"reason" json:"reason,omitempty"`
	Summary  string   `toml:"summary" json:"summary,omitempty"`
	Match    []string `toml:"match" json:"match,omitempty"`
	NotMatch []string `toml:"not_match" json:"notMatch,omitempty"`
}

type fileShape struct {
	// Workspace is the folder a per-workspace file is for (its real path).
	Workspace string    `toml:"workspace"`
	Rule      []Written `toml:"rule"`
}

// Error is a policy file that loaded nothing: where and why.
type Error struct {
	File string `json:"file"`
	Line int    `json:"line,omitempty"`
	Msg  string `json:"message"`
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return e.File + ": " + e.Msg
}

var ruleHeader = regexp.MustCompile(`^\s*\[\[\s*rule\s*\]\]`)

// ruleLines returns the line (from 1) of each [[rule]] header in text.
func ruleLines(text string) []int {
	var out []int
	for i, l := range strings.Split(text, "\n") {
		if ruleHeader.MatchString(l) {
			out = append(out, i+1)
		}
	}
	return out
}

// parse reads text, the content of file in layer, into its rules: all or
// none.
func parse(file, layer, text string) (fileShape, []approval.StandingRule, error) {
	var shape fileShape
	md, err := toml.Decode(text, &shape)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return shape, nil, &Error{File: file, Line: pe.Position.Line, Msg: pe.Message}
		}
		return shape, nil, &Error{File: file, Msg: err.Error()}
	}
	if und := md.Undecoded(); len(und) > 0 {
		return shape, nil, &Error{File: file, Msg: fmt.Sprintf("unknown key %q (keys: workspace, and per [[rule]]: id, decision, tool, commands, files, paths, access, action, cwd, domain, reason, summary, match, not_match)", und[0].String())}
	}
	lines := ruleLines(text)
	rules := make([]approval.StandingRule, 0, len(shape.Rule))
	seen := map[string]int{}
	for i, fr := range shape.Rule {
		line := 0
		if i < len(lines) {
			line = lines[i]
		}
		r, err := compile(fr, layer, file, i)
		if err != nil {
			return shape, nil, &Error{File: file, Line: line, Msg: fmt.Sprintf("rule %d: %v", i+1, err)}
		}
		if prev, dup := seen[r.ID]; dup {
			return shape, nil, &Error{File: file, Line: line, Msg: fmt.Sprintf("rule %d: id %q is also rule %d's", i+1, r.ID, prev)}
		}
		seen[r.ID] = i + 1
		r.Line = line
		rules = append(rules, r)
	}
	return shape, rules, nil
}

// compile checks fr and makes it a standing rule, its examples checked.
func compile(fr Written, layer, file string, i int) (approval.StandingRule, error) {
	v, err := approval.ParseVerdict(fr.Decision)
	if err != nil {
		return approval.StandingRule{}, err
	}
	if err := checkPaths(&fr, v); err != nil {
		return approval.StandingRule{}, err
	}
	if fr.Tool == "" {
		return approval.StandingRule{}, errors.New("tool is required (bash, apply_patch, mcp__server__tool, …), or paths for every tool")
	}
	if v == approval.VerdictAllow && strings.Contains(fr.Tool, "*") {
		return approval.StandingRule{}, errors.New("an allow rule names its tool exactly (a wildcard tool is for ask and deny)")
	}
	if len(fr.Commands) > 0 && len(fr.Files) > 0 {
		return approval.StandingRule{}, errors.New("a rule has commands or files, not both")
	}
	domain, err := checkDomain(fr)
	if err != nil {
		return approval.StandingRule{}, err
	}
	switch fr.Action {
	case "", "exec", "start":
	case "status", "logs", "list":
		if len(fr.Commands) > 0 || len(fr.Files) > 0 {
			return approval.StandingRule{}, fmt.Errorf("action %q names no command: a rule for it has no commands or files", fr.Action)
		}
	default:
		return approval.StandingRule{}, fmt.Errorf("action %q: want exec or start (or status, logs, list without commands)", fr.Action)
	}
	if strings.HasPrefix(fr.Cwd, "/") || strings.HasPrefix(fr.Cwd, "..") || strings.HasPrefix(fr.Cwd, "~") {
		return approval.StandingRule{}, fmt.Errorf("cwd %q: a folder relative to the workspace root", fr.Cwd)
	}
	r := approval.StandingRule{Decision: v, Reason: fr.Reason, Layer: layer, File: file, Access: fr.Access}
	r.ID, r.Tool, r.Action, r.Cwd, r.Summary = fr.ID, fr.Tool, fr.Action, fr.Cwd, fr.Summary
	r.Match, r.NotMatch, r.Domain = fr.Match, fr.NotMatch, domain
	if r.ID == "" {
		r.ID = fmt.Sprintf("%s:%d", layer, i+1)
	}
	for _, c := range fr.Commands {
		words, err := approval.CommandPattern(c)
		if err != nil {
			return approval.StandingRule{}, err
		}
		if slices.Contains(words, approval.AnyArgs) && (v == approval.VerdictAllow || words[len(words)-1] != approval.AnyArgs) {
			return approval.StandingRule{}, fmt.Errorf("command %q: ** (any further arguments) ends an ask or deny rule's command only; an allow rule names every argument", c)
		}
		r.Commands = append(r.Commands, words)
	}
	for _, f := range fr.Files {
		if f == "" || strings.HasPrefix(f, "/") || strings.Contains("/"+f+"/", "/../") {
			return approval.StandingRule{}, fmt.Errorf("file %q: a workspace-relative path or glob", f)
		}
		r.Files = append(r.Files, f)
	}
	if r.Summary == "" {
		r.Summary = summarize(r)
	}
	for _, ex := range slices.Concat(fr.Match, fr.NotMatch) {
		if r.Domain != "" && approval.URLDomain(ex) == "" {
			return approval.StandingRule{}, fmt.Errorf("example %q: a domain rule's examples are http or https URLs", ex)
		}
	}
	for _, ex := range fr.Match {
		if !r.Matches(ex) {
			return approval.StandingRule{}, fmt.Errorf("match example %q is not matched", ex)
		}
	}
	for _, ex := range fr.NotMatch {
		if r.Matches(ex) {
			return approval.StandingRule{}, fmt.Errorf("not_match example %q is matched", ex)
		}
	}
	return r, nil
}

// checkPaths checks fr's paths and access and writes a rule with paths
// as the one matcher reads it: files of every tool ("*") with an access.
func checkPaths(fr *Written, v approval.Verdict) error {
	if len(fr.Paths) > 0 {
		if len(fr.Files) > 0 || len(fr.Commands) > 0 || fr.Domain != "" || fr.Action != "" || fr.Cwd != "" {
			return errors.New("a rule with paths names nothing else: paths are for every tool (or write files on one tool)")
		}
		if fr.Tool != "" && fr.Tool != "*" {
			return fmt.Errorf("paths are for every tool: leave tool out (or write files = [...] on %s)", fr.Tool)
		}
		fr.Tool, fr.Files, fr.Paths = "*", fr.Paths, nil
	}
	if fr.Tool == "*" && len(fr.Files) > 0 && fr.Access == "" {
		fr.Access = approval.AccessAny
	}
	if fr.Access == "" {
		return nil
	}
	switch fr.Access {
	case approval.AccessRead, approval.AccessWrite, approval.AccessAny:
	default:
		return fmt.Errorf("access %q: want read, write or any", fr.Access)
	}
	if len(fr.Files) == 0 {
		return errors.New("access is for a rule with paths (or files)")
	}
	if v == approval.VerdictAllow {
		return errors.New("paths and access are for deny and ask rules: an allow rule names its tool and files, exactly")
	}
	return nil
}

// checkDomain checks fr's domain: a host name or "*." and one, for a
// web_fetch rule that names nothing else; "" when it has none.
func checkDomain(fr Written) (string, error) {
	if fr.Domain == "" {
		if fr.Tool == web.Name && fr.Decision == string(approval.VerdictAllow) {
			// What "Always allow" saved before rules had a domain: it
			// would read as every URL, which the dialog never offered.
			return "", fmt.Errorf("an allow rule for %s names its domain (domain = \"example.com\", or \"*.example.com\" for the names below it)", web.Name)
		}
		return "", nil
	}
	d, err := netproxy.CleanEntry(fr.Domain)
	if err != nil {
		return "", fmt.Errorf("domain: %v", err)
	}
	if fr.Tool != web.Name && !strings.Contains(fr.Tool, "*") {
		return "", fmt.Errorf("domain %q: a domain is for %s rules, not %s", d, web.Name, fr.Tool)
	}
	if len(fr.Commands) > 0 || len(fr.Files) > 0 || fr.Action != "" || fr.Cwd != "" {
		return "", errors.New("a rule with a domain has no commands, files, action or folder")
	}
	return d, nil
}

// summarize spells out r's scope.
func summarize(r approval.StandingRule) string {
	var what string
	switch {
	case len(r.Commands) > 0:
		var cs []string
		for _, c := range r.Commands {
			cs = append(cs, "`"+approval.PatternText(c)+"`")
		}
		what = "run " + strings.Join(cs, ", ")
		if r.Action != "" && r.Action != "exec" {
			what += " (" + r.Action + ")"
		}
		if r.Cwd != "" && r.Cwd != "." {
			what += " in " + r.Cwd + "/"
		}
	case r.Domain != "":
		what = r.Tool + " any URL on " + r.Domain
		if rest, ok := strings.CutPrefix(r.Domain, "*."); ok {
			what += " (the names below " + rest + ", not " + rest + " itself)"
		} else {
			what += " (this exact domain, not its subdomains)"
		}
	case r.Action != "":
		what = r.Tool + " " + r.Action
	case len(r.Files) > 0:
		what = approval.FileRuleText(r)
	default:
		what = r.Tool + " (any arguments)"
	}
	return string(r.Decision) + ": " + what
}

// readFile loads file of layer: its rules, or none and the error; a file
// that does not exist is empty.
func readFile(file, layer string) (fileShape, []approval.StandingRule, error) {
	b, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return fileShape{}, nil, nil
	}
	if err != nil {
		return fileShape{}, nil, &Error{File: file, Msg: err.Error()}
	}
	if len(b) > 1<<20 {
		return fileShape{}, nil, &Error{File: file, Msg: "larger than 1 MiB: refused"}
	}
	return parse(file, layer, string(b))
}

// Package agents runs subagents: child sessions a session hands a task to,
// each with its own transcript, its own processes and a tool policy from
// its definition.
//
// # Definitions
//
// A definition is a Markdown file with front matter:
//
//	---
//	name: reviewer
//	description: Reviews a diff and lists problems.
//	tools: read-only            # or: read_file, grep, bash
//	model: gpt-4.1-mini         # optional
//	maxSteps: 20                # optional
//	hooks:                      # optional: hooks.json's hooks object, in YAML
//	  PreToolUse:
//	    - matcher: Bash
//	      hooks: [{type: command, command: ./.hooks/no-rm.sh, timeout: 10}]
//	---
//	You review changes. …       (the body: the child's instructions)
//
// The front matter is YAML. Its hooks (PreToolUse, PostToolUse,
// PostToolUseFailure, Stop, which runs as SubagentStop) run for that
// agent's children only, beside the session's own hooks; a workspace's
// definition's run only once the user trusted the workspace's hooks
// (trust.KindHooks covers them and the scripts they name), confined.
//
// They are read from the user's config folder (agents/*.md) and, once the
// folder is trusted, the workspace's .gatehouse/agents/*.md. The built-ins
// explore, plan, general and reviewer come first; a later definition with the same
// name wins (user over built-in, workspace over user), and Source says
// which file it came from.
//
// # Tools and policy
//
// A Manager attached to a session offers delegate_<name> {task, context?}
// per definition (runs a child to completion and returns its answer) and
// subagent_start/status/result/stop for children in the background. A
// child's policy is its definition's tools intersected with its parent's;
// its calls pass the parent session's gate (mode, rules, gateway), labelled
// with the agent. See Manager.
package agents

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"gatehouse/internal/frontmatter"
	"gatehouse/internal/hooks"
	"gatehouse/internal/tools"
	"gatehouse/internal/tools/files"
	"gatehouse/internal/trust"
)

// ReadOnlyGroup is the tools value naming every tool that only reads.
const ReadOnlyGroup = "read-only"

// Definition is one agent a session may delegate to.
type Definition struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Tools lists the tool names the agent may use; nil with ReadOnly
	// unset means every tool its parent has.
	Tools    []string `json:"tools,omitempty"`
	ReadOnly bool     `json:"readOnly,omitempty"`
	// Model, when set, is the model the child streams from.
	Model    string `json:"model,omitempty"`
	MaxSteps int    `json:"maxSteps,omitempty"`
	// Prompt is the body: the child's instructions.
	Prompt string `json:"prompt,omitempty"`
	// Hooks are the hooks of its front matter (hooks.ScopeAgent): they
	// run for its children's calls only, beside the session's. A
	// workspace's definition's run as the user trusted them for hooks
	// (the child reads them from that trust, not from here).
	Hooks []hooks.Hook `json:"-"`
	// workspace is the root of the workspace whose definition this is
	// ("" for the user's and the built-ins).
	workspace string
	// Source is the file the definition came from, "built-in" for the
	// built-ins.
	Source string `json:"source"`
}

// Policy is the definition's own policy; the child gets it intersected
// with its parent's.
func (d Definition) Policy() tools.Policy {
	p := tools.Policy{ReadOnly: d.ReadOnly}
	if d.Tools != nil {
		p.Allowed = tools.AllowOnly(d.Tools...).Allowed
	}
	return p
}

var exploreTools = []string{"read_file", "list_dir", "glob", "grep"}

// Builtins are explore, plan, general and reviewer.
func Builtins() []Definition {
	return []Definition{
		{Name: "explore", Source: "built-in", Tools: exploreTools,
			Description: "Explores the codebase (reads, lists, globs and greps files) and answers a question about it, keeping the details out of your context.",
			Prompt:      "You explore the workspace to answer the task. You can only read. Answer with what you found: the files, the facts and short quotes that matter, nothing else."},
		{Name: "plan", Source: "built-in", Tools: exploreTools,
			Description: "Reads the code and answers with a step-by-step plan for the task, without changing anything.",
			Prompt:      "You plan. Read what you need of the workspace, then answer with a numbered plan: the files to change, what to change in each, and how to check it. Do not change anything."},
		{Name: "general", Source: "built-in",
			Description: "A general agent with every tool you have, for a self-contained piece of work.",
			Prompt:      "You do the task you were given, completely, then answer with a short report of what you did and what is left."},
		{Name: ReviewerAgent, Source: "built-in", Tools: append(slices.Clip(exploreTools), FindingsTool),
			Description: "Reviews a diff: reads the changed code and the files around it and reports each problem it finds as a finding.",
			Prompt:      reviewerPrompt},
	}
}

// ReviewerAgent is the agent a review runs (internal/review); a definition
// of the user's or the workspace's with this name replaces the built-in.
const ReviewerAgent = "reviewer"

// FindingsTool is the tool a reviewer reports its findings through: a
// review offers it to the reviewer's child session only, and reads the
// findings from its calls, never from the answer's prose.
const FindingsTool = "report_findings"

const reviewerPrompt = `You review code changes. You can only read. The task gives the diff; read the changed files and the code around and behind the changes (callers, tests, definitions) as far as you need to judge them.

Report every problem through the report_findings tool, never in prose: one finding per problem, with its severity (critical: data loss, security hole or crash on a common path; high: a bug users will hit; medium: a bug in an edge case or a clear maintainability hazard; low: a small issue; info: a remark), the file's path as the diff names it, the line range on the new side of the diff, a short title, an explanation of what goes wrong and when, and, when you can, the replacement text for those lines. Point at changed lines where you can. Do not report style preferences. When you have reported everything (or found nothing), answer with one line summing up the review.`

// validName: ^[a-z][a-z0-9_-]{0,39}$ (a delegate_<name> tool name stays
// valid). Not a regexp: compiling one costs every process start-up.
func validName(n string) bool {
	if n == "" || len(n) > 40 || n[0] < 'a' || n[0] > 'z' {
		return false
	}
	return strings.Trim(n, "abcdefghijklmnopqrstuvwxyz0123456789_-") == ""
}

// validToolName: ^[a-zA-Z0-9_-]{1,64}$, as the tools package requires.
func validToolName(n string) bool {
	return n != "" && len(n) <= 64 && strings.Trim(n, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == ""
}

// Parse reads one definition file's content; source is its path. The
// front matter is YAML (read leniently: an unquoted ": " in a value
// works); its keys are name, description, tools, model, maxSteps and
// hooks, any other is refused, as is a key given twice. Hooks are in the
// shape of a hooks file's hooks object (Claude Code's subagent front
// matter), checked as a hooks file is: a bad one refuses the definition,
// naming the file, the line and the place.
func Parse(source string, data []byte) (Definition, error) {
	d := Definition{Source: source}
	doc, err := frontmatter.Split(data)
	switch {
	case errors.Is(err, frontmatter.ErrNone):
		return d, fmt.Errorf("%s: no front matter (the file must start with a line ---)", source)
	case err != nil:
		return d, fmt.Errorf("%s: the front matter is not closed by a line ---", source)
	}
	d.Prompt = strings.TrimSpace(doc.Body)
	root, err := doc.Root()
	var bad *frontmatter.Error
	if errors.As(err, &bad) {
		return d, fmt.Errorf("%s:%d: %s", source, bad.Line, strings.TrimPrefix(bad.Error(), fmt.Sprintf("line %d: ", bad.Line)))
	}
	if root != nil && root.Kind != yaml.MappingNode {
		return d, fmt.Errorf("%s:2: expected key: value lines", source)
	}
	var hooksAt int
	var hooksJSON []byte
	if root != nil {
		seen := map[string]int{}
		for i := 0; i+1 < len(root.Content); i += 2 {
			k, v := root.Content[i], root.Content[i+1]
			key, line := k.Value, k.Line+1 // the --- line comes first
			if first, dup := seen[key]; dup {
				return d, fmt.Errorf("%s:%d: %s is given twice (first on line %d)", source, line, key, first)
			}
			seen[key] = line
			if key == "hooks" {
				if v.Tag != "!!null" {
					if hooksJSON, err = frontmatter.JSON(v); err != nil {
						return d, fmt.Errorf("%s:%d: hooks: %v", source, line, err)
					}
					hooksAt = line
				}
				continue
			}
			if err := d.set(source, key, line, v); err != nil {
				return d, err
			}
		}
	}
	if i := indexOf(d.Tools, ReadOnlyGroup); i >= 0 {
		d.ReadOnly, d.Tools = true, append(d.Tools[:i:i], d.Tools[i+1:]...)
		if len(d.Tools) == 0 {
			d.Tools = nil
		}
	}
	switch {
	case !validName(d.Name):
		return d, fmt.Errorf("%s: name %q must be lower-case letters, digits, - or _ (up to 40)", source, d.Name)
	case d.Description == "":
		return d, fmt.Errorf("%s: description is missing", source)
	}
	for _, t := range d.Tools {
		if !validToolName(t) {
			return d, fmt.Errorf("%s: tools: %q is not a tool name", source, t)
		}
	}
	if hooksJSON != nil {
		where := fmt.Sprintf("%s:%d: hooks", source, hooksAt)
		if d.Hooks, err = hooks.ParseAgent([]byte(`{"hooks":`+string(hooksJSON)+`}`), source, where, d.Name); err != nil {
			return d, err
		}
	}
	return d, nil
}

// set reads the front matter key (on line) with its value v into d.
func (d *Definition) set(source, key string, line int, v *yaml.Node) error {
	text := func() (string, error) {
		if v.Kind != yaml.ScalarNode {
			return "", fmt.Errorf("%s:%d: %s must be text", source, line, key)
		}
		return v.Value, nil
	}
	var err error
	switch key {
	case "name":
		d.Name, err = text()
	case "description":
		d.Description, err = text()
	case "model":
		d.Model, err = text()
	case "maxSteps":
		n, aerr := strconv.Atoi(v.Value)
		if v.Kind != yaml.ScalarNode || aerr != nil || n < 1 {
			return fmt.Errorf("%s:%d: maxSteps must be a positive number, got %q", source, line, v.Value)
		}
		d.MaxSteps = n
	case "tools":
		d.Tools = []string{}
		switch {
		case v.Kind == yaml.SequenceNode:
			for _, it := range v.Content {
				if it.Kind != yaml.ScalarNode {
					return fmt.Errorf("%s:%d: tools: each item must be a tool name", source, it.Line+1)
				}
				d.Tools = append(d.Tools, it.Value)
			}
		case v.Kind != yaml.ScalarNode:
			return fmt.Errorf("%s:%d: tools must be a list of tool names or %s", source, line, ReadOnlyGroup)
		case v.Value == ReadOnlyGroup:
			d.ReadOnly, d.Tools = true, nil
		default:
			for _, n := range strings.Split(v.Value, ",") {
				if n = strings.TrimSpace(n); n != "" {
					d.Tools = append(d.Tools, n)
				}
			}
		}
	default:
		return fmt.Errorf("%s:%d: unknown key %q (name, description, tools, model, maxSteps, hooks)", source, line, key)
	}
	return err
}

func indexOf(xs []string, x string) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

// LoadOptions says where definitions come from.
type LoadOptions struct {
	// UserDir is the user's config folder; its agents/ holds definitions.
	UserDir string
	// Workspace is the workspace's root; its .gatehouse/agents/ is read
	// only when Trusted says so.
	Workspace string
	// Trusted returns the workspace's .gatehouse/agents/ content when the
	// user trusts it as it is now (folder trust), nil otherwise; nil: the
	// workspace's definitions never load. The definitions are parsed from
	// the bytes it returns, which are the bytes that were hashed.
	Trusted func(workspace string) *trust.Content
}

// readDir parses dir's *.md definitions, in name order; a file that does
// not parse is left out and its error returned.
func readDir(dir string) ([]Definition, []error) {
	paths, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	sort.Strings(paths)
	var defs []Definition
	var errs []error
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err == nil {
			var d Definition
			if d, err = Parse(p, data); err == nil {
				defs = append(defs, d)
				continue
			}
		}
		errs = append(errs, err)
	}
	return defs, errs
}

// parseContent parses the definitions of a workspace's trusted content:
// the .md files directly in WorkspaceDir, from the bytes that were hashed.
func parseContent(ws string, c *trust.Content) ([]Definition, []error) {
	var defs []Definition
	var errs []error
	for _, rel := range c.Files {
		if !isDefinitionFile(rel) {
			continue
		}
		d, err := Parse(filepath.Join(ws, filepath.FromSlash(rel)), c.Data[rel])
		if err != nil {
			errs = append(errs, err)
			continue
		}
		d.workspace = ws
		defs = append(defs, d)
	}
	return defs, errs
}

// isDefinitionFile reports whether rel (workspace-relative, slashes) is
// read as a definition: a .md file directly in WorkspaceDir.
func isDefinitionFile(rel string) bool {
	return strings.HasSuffix(rel, ".md") && path.Dir(rel) == WorkspaceDir
}

// WorkspaceDir is where a workspace keeps its definitions.
const WorkspaceDir = trust.AgentsDir

// Load returns the built-ins, then the user's, then the trusted
// workspace's definitions, a later one replacing an earlier one of the same
// name, sorted by name. A file that does not parse is left out and its
// error returned beside the rest.
func Load(o LoadOptions) ([]Definition, []error) {
	byName := map[string]Definition{}
	for _, d := range Builtins() {
		byName[d.Name] = d
	}
	var errs []error
	add := func(defs []Definition, es []error) {
		for _, d := range defs {
			byName[d.Name] = d
		}
		errs = append(errs, es...)
	}
	if o.UserDir != "" {
		add(readDir(filepath.Join(o.UserDir, "agents")))
	}
	if o.Workspace != "" && o.Trusted != nil {
		if c := o.Trusted(o.Workspace); c != nil {
			add(parseContent(o.Workspace, c))
		}
	}
	out := make([]Definition, 0, len(byName))
	for _, d := range byName {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, errs
}

// readOnlyBuiltins names the built-in tools whose every call only reads
// (bash is read-only per call, never as a whole).
var readOnlyBuiltins = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, t := range files.All(nil) {
		if s := t.Spec(); s.ReadOnly {
			out[s.Name] = true
		}
	}
	return out
})

// readsOnly reports whether a child of d can only read: its definition
// says read-only, or every tool it lists is a built-in that only reads.
func readsOnly(d Definition) bool {
	if d.ReadOnly {
		return true
	}
	if len(d.Tools) == 0 {
		return false // every tool its parent has
	}
	for _, n := range d.Tools {
		if !readOnlyBuiltins()[n] && n != FindingsTool {
			return false
		}
	}
	return true
}

package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"gatehouse/internal/approval"
	"gatehouse/internal/policy"
	"gatehouse/internal/session"
	"gatehouse/internal/settings"
	"gatehouse/internal/termsafe"
	"gatehouse/internal/trust"
	"gatehouse/internal/workspace"
)

// Exit statuses of `gatehouse policy check`.
const (
	ExitPolicyAsk  = 3
	ExitPolicyDeny = 4
)

const policyUsage = `usage:
  gatehouse policy check [--workspace DIR] [--json] -- 'COMMAND LINE'
  gatehouse policy check --tool NAME [--workspace DIR] [--json] [-- PATH|URL]
  gatehouse policy list [--workspace DIR] [--json]
  gatehouse policy add allow|ask|deny [--workspace DIR] [--everywhere] [--reason TEXT] -- 'COMMAND LINE'
  gatehouse policy remove [--workspace DIR] ID

The standing policy: rules that outlive a session, in the user's policy.toml
(everywhere), the user's file for one workspace (policy.d/, keyed by its real
path) and, once trusted in the window, the workspace's own
.gatehouse/policy.toml (ask and deny only). deny beats ask beats allow.

check   which rule decides a bash command line run in the workspace root, and
        why; with --tool, a call of that tool on PATH (workspace-relative),
        of URL (web_fetch: its domain decides), or on anything (no PATH: an
        MCP tool as a whole). For a reading tool and a path, every route's
        verdict (read_file, grep/glob/list_dir, commands) and what stays
        open; for a command line, what the sandbox hides from it. Exit status: 0 allow, 3 ask (or no rule: the approval mode
        decides), 4 deny; 1 error, 2 bad usage.
add     saves a rule for this workspace (--everywhere: the user's file). allow
        saves exactly the rule the dialog offers for the line (its words, no
        more); ask and deny take one simple command as a pattern: * inside a
        word, ** as the last word for any further arguments.
remove  deletes a rule by id from the user's files.
`

// PolicyMain runs `gatehouse policy` for main.
func PolicyMain(args []string, stdout, stderr io.Writer) int {
	cfg, err := settings.DefaultDir()
	if err != nil {
		fmt.Fprintln(stderr, "gatehouse policy:", err)
		return ExitError
	}
	data, _ := session.DefaultDir()
	return Policy(args, cfg, data, stdout, stderr)
}

// Policy runs `gatehouse policy`; args follow "policy".
func Policy(args []string, configDir, dataDir string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, policyUsage)
		return ExitUsage
	}
	verb, rest := args[0], args[1:]
	var decision approval.Verdict
	if verb == "add" {
		if len(rest) == 0 {
			fmt.Fprint(stderr, policyUsage)
			return ExitUsage
		}
		v, err := approval.ParseVerdict(rest[0])
		if err != nil {
			fmt.Fprintln(stderr, "gatehouse policy add:", err)
			return ExitUsage
		}
		decision, rest = v, rest[1:]
	}
	fs := flag.NewFlagSet("gatehouse policy "+verb, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, policyUsage) }
	wsDir := fs.String("workspace", "", "the workspace (default: the current folder)")
	asJSON := fs.Bool("json", false, "print JSON")
	everywhere := fs.Bool("everywhere", false, "add: save in the user's file, for every workspace")
	reason := fs.String("reason", "", "add: the reason a deny or ask gives")
	tool := fs.String("tool", "bash", "check: the tool called (bash takes the command line; a file tool a path)")
	if err := fs.Parse(rest); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitUsage
	}
	if *wsDir == "" {
		*wsDir, _ = os.Getwd()
	}
	root, err := filepath.Abs(*wsDir)
	if err != nil {
		fmt.Fprintln(stderr, "gatehouse policy:", err)
		return ExitUsage
	}
	w := policy.Where{ConfigDir: configDir, Workspace: root, Trust: trust.NewStore(configDir)}
	fail := func(err error) int { fmt.Fprintln(stderr, "gatehouse policy "+verb+":", err); return ExitError }
	switch verb {
	case "check", "add":
		if fs.NArg() != 1 && !(verb == "check" && *tool != "bash" && fs.NArg() == 0) {
			fmt.Fprintln(stderr, "gatehouse policy "+verb+": give the command line as one argument after --")
			return ExitUsage
		}
		ws, err := workspace.New(root, workspace.Options{})
		if err != nil {
			return fail(err)
		}
		if verb == "check" {
			return policyCheck(w, ws, *tool, fs.Arg(0), *asJSON, stdout, stderr)
		}
		return policyAdd(w, ws, decision, fs.Arg(0), *reason, *everywhere, stdout, stderr)
	case "list":
		return policyList(w, dataDir, *asJSON, stdout)
	case "remove":
		if fs.NArg() != 1 {
			fmt.Fprintln(stderr, "gatehouse policy remove: give the rule's id")
			return ExitUsage
		}
		r, err := policy.Remove(w, fs.Arg(0))
		if err != nil {
			return fail(err)
		}
		fmt.Fprintf(stdout, "removed %s (%s) from %s\n", r.ID, termsafe.Line(r.Summary), r.File)
		return ExitOK
	}
	fmt.Fprint(stderr, policyUsage)
	return ExitUsage
}

func policyCheck(w policy.Where, ws *workspace.Workspace, tool, target string, asJSON bool, stdout, stderr io.Writer) int {
	p := policy.Load(w)
	for _, e := range p.Errors {
		fmt.Fprintln(stderr, "not loaded:", termsafe.Line(e.Error()))
	}
	d := policy.CheckAll(p.Rules, ws, tool, target)
	routes, open, notes := d.Routes, d.StaysOpen, d.Sandbox
	if asJSON {
		json.NewEncoder(stdout).Encode(d)
	} else {
		v := string(d.Verdict)
		if v == "" {
			v = "no rule"
		}
		fmt.Fprintf(stdout, "%s: %s\n", v, termsafe.Line(d.Why))
		for _, r := range routes {
			rv := string(r.Verdict)
			if rv == "" {
				rv = "no rule"
			}
			fmt.Fprintf(stdout, "  %s: %s: %s\n", r.Route, rv, termsafe.Line(r.Why))
		}
		for _, o := range open {
			fmt.Fprintf(stdout, "  stays open: %s\n", termsafe.Line(o))
		}
		for _, n := range notes {
			fmt.Fprintf(stdout, "  sandbox: %s\n", termsafe.Line(n))
		}
	}
	switch d.Verdict {
	case approval.VerdictAllow:
		return ExitOK
	case approval.VerdictDeny:
		return ExitPolicyDeny
	}
	return ExitPolicyAsk
}

func policyAdd(w policy.Where, ws *workspace.Workspace, v approval.Verdict, line, reason string, everywhere bool, stdout, stderr io.Writer) int {
	n := policy.New{Decision: v, Reason: reason}
	if v == approval.VerdictAllow {
		r := approval.Offer(ws, "", line)
		if r == nil {
			fmt.Fprintln(stderr, "gatehouse policy add: this line cannot be allowed by a rule (it is not plain: an expansion, a redirection to a file, a wrapper, or something dangerous); the dialog would not offer one either")
			return ExitError
		}
		n.Rule, n.Examples = *r, []string{line}
	} else {
		words, err := approval.CommandPattern(line)
		if err != nil {
			fmt.Fprintln(stderr, "gatehouse policy add:", err)
			return ExitUsage
		}
		n.Rule.Tool, n.Rule.Commands, n.Patterns = "bash", [][]string{words}, true
	}
	scope := policy.ScopeWorkspace
	if everywhere {
		scope = policy.ScopeEverywhere
	}
	r, err := policy.Add(w, scope, n)
	if err != nil {
		fmt.Fprintln(stderr, "gatehouse policy add:", err)
		return ExitError
	}
	fmt.Fprintf(stdout, "added %s: %s\nin %s\n", r.ID, termsafe.Line(r.Summary), r.File)
	return ExitOK
}

// listed is one rule as `policy list --json` prints it.
type listed struct {
	approval.StandingRule
	Uses policy.Use `json:"uses"`
}

func policyList(w policy.Where, dataDir string, asJSON bool, stdout io.Writer) int {
	p := policy.Load(w)
	uses := policy.Uses{}
	if dataDir != "" {
		uses, _ = policy.OpenAudit(dataDir).Uses()
	}
	if asJSON {
		out := struct {
			Rules     []listed        `json:"rules"`
			Errors    []*policy.Error `json:"errors"`
			Untrusted string          `json:"untrusted,omitempty"`
		}{Rules: []listed{}, Errors: p.Errors, Untrusted: p.Untrusted}
		for _, r := range p.Rules {
			out.Rules = append(out.Rules, listed{r, uses[r.ID]})
		}
		json.NewEncoder(stdout).Encode(out)
		return ExitOK
	}
	for _, r := range p.Rules {
		u := uses[r.ID]
		last := "never"
		if u.Count > 0 {
			last = u.Last.Local().Format("2006-01-02 15:04")
		}
		fmt.Fprintf(stdout, "%-12s %-5s %-9s %s\n    %s:%d · decided %d times, last %s\n", r.ID, r.Decision, r.Layer,
			termsafe.Line(r.Summary), r.File, r.Line, u.Count, last)
	}
	for _, e := range p.Errors {
		fmt.Fprintln(stdout, "not loaded:", termsafe.Line(e.Error()))
	}
	if p.Untrusted != "" {
		fmt.Fprintln(stdout, "not read until the folder is trusted:", p.Untrusted)
	}
	if len(p.Rules) == 0 && len(p.Errors) == 0 {
		fmt.Fprintln(stdout, "no standing rules of yours")
	}
	return ExitOK
}

package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"gatehouse/internal/approval"
	"gatehouse/internal/events"
	"gatehouse/internal/gitview"
	"gatehouse/internal/policy"
	"gatehouse/internal/protocol"
	"gatehouse/internal/review"
	"gatehouse/internal/sessionhost"
	"gatehouse/internal/settings"
	"gatehouse/internal/termsafe"
	"gatehouse/internal/trust"
	"gatehouse/internal/workspace"
)

// ExitFindings: a review found a problem at or above --fail-on.
const ExitFindings = 5

const reviewUsage = `usage: gatehouse review [--workspace DIR] [--uncommitted | --staged | --base REF | --commit SHA]
                       [--json] [--fail-on SEVERITY] [--approval safe|manual|auto]
                       [--model M] [--base-url URL] [--api chat|responses]

Has the reviewer agent review a diff and prints its findings: the
uncommitted changes (the working tree against HEAD with the untracked
files that are not ignored as added files, the default), the staged ones, this branch against its merge base with REF, or commit SHA.
The reviewer reads the diff and the files around it, and can only read;
its calls pass the approval gate (--approval, default safe) and the
budgets as any session's. Its definition is the built-in reviewer, or your
agents/reviewer.md (a trusted workspace's .gatehouse/agents/reviewer.md).
In a repository whose git settings you have not trusted, git runs in its
safe mode (no hooks, filters, textconv or external diff).

Without --json each finding is printed as
  SEVERITY FILE:LINES TITLE
followed by its explanation and suggested change; the reviewer's summary
goes to stderr. With --json stdout carries one finding per line:
{id, severity, file, startLine, endLine, title, explanation, suggestion?,
hunkId?, hunkHeader?, lines?, linesFrom?}.

--fail-on (critical, high, medium, low or info; default high) sets which
findings fail the run.

Exit status: 0 no finding at or above --fail-on, 5 one is, 1 error (the
reviewer did not finish, the folder is not a git repository), 2 bad usage.
`

// ReviewMain runs `gatehouse review` for main: SIGINT or SIGTERM cancels it.
func ReviewMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runMain("review", Review, args, stdin, stdout, stderr)
}

// Review runs `gatehouse review`; args are the command line after "review".
func Review(ctx context.Context, args []string, env sessionhost.Env, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gatehouse review", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, reviewUsage) }
	wsDir := fs.String("workspace", ".", "the folder whose repository is reviewed")
	uncommitted := fs.Bool("uncommitted", false, "review the working tree against HEAD (the default)")
	staged := fs.Bool("staged", false, "review the staged changes")
	base := fs.String("base", "", "review this branch against its merge base with REF")
	commit := fs.String("commit", "", "review commit SHA")
	asJSON := fs.Bool("json", false, "print one finding per line as JSON")
	failOn := fs.String("fail-on", string(review.High), "the least severity that fails the run")
	mode := fs.String("approval", env.ApprovalDefault(), "approval mode: safe, manual or auto")
	model := fs.String("model", "", "model name")
	baseURL := fs.String("base-url", "", "OpenAI-compatible API base URL")
	api := fs.String("api", "", "model API: chat or responses")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitUsage
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "gatehouse review: "+format+"\n", a...)
		return ExitUsage
	}
	target := gitview.Target{Kind: gitview.TargetUncommitted}
	chosen := 0
	if *uncommitted {
		chosen++
	}
	if *staged {
		chosen, target = chosen+1, gitview.Target{Kind: gitview.TargetStaged}
	}
	if *base != "" {
		chosen, target = chosen+1, gitview.Target{Kind: gitview.TargetBase, Ref: *base}
	}
	if *commit != "" {
		chosen, target = chosen+1, gitview.Target{Kind: gitview.TargetCommit, Ref: *commit}
	}
	if fs.NArg() > 0 {
		return usage("unexpected arguments %q", fs.Args())
	}
	if chosen > 1 {
		return usage("give one of --uncommitted, --staged, --base and --commit")
	}
	if err := target.Validate(); err != nil {
		return usage("%v", err)
	}
	least, err := review.ParseSeverity(*failOn)
	if err != nil {
		return usage("--fail-on: %v", err)
	}
	am, err := approval.ParseMode(*mode)
	if err != nil || am == approval.Plan {
		return usage("unknown --approval %q: use safe, manual or auto", *mode)
	}
	if !settings.ValidAPI(*api) {
		return usage("unknown --api %q: use chat or responses", *api)
	}
	client, eff, err := sessionhost.OpenModel(env, settings.Flags{BaseURL: *baseURL, Model: *model, API: *api})
	switch {
	case errors.Is(err, sessionhost.ErrReadSettings):
		fmt.Fprintln(stderr, "gatehouse review:", err)
		return ExitError
	case err != nil:
		return usage("%v", err)
	}
	ws, err := workspace.New(*wsDir, workspace.Options{})
	if err != nil {
		return usage("%v", err)
	}
	repo, err := gitview.Open(ctx, ws.Root(), nil)
	if err != nil {
		fmt.Fprintf(stderr, "gatehouse review: %s: %v\n", ws.Root(), err)
		return ExitError
	}
	repo.Trusted = gitview.TrustedBy(trust.NewStore(env.ConfigDir), repo.Main)

	h := sessionhost.New(env, sessionhost.Options{Logger: warnLogger(stderr),
		Settings: func() settings.Effective { return eff }})
	defer h.Close()
	save := policy.Where{}
	if env.ConfigDir != "" {
		save = h.PolicyWhere(ws.Root())
	}
	gateway, asker := terminalHost(stdin, stderr, save)
	sess, err := h.Open(sessionhost.Spec{Workspace: ws, Model: client, Sink: events.SinkFunc(func(protocol.Event) {}),
		Mode: func() approval.Mode { return am }, Gateway: gateway, Asker: asker, NoWatch: true, MCPWait: ctx})
	if err != nil {
		fmt.Fprintln(stderr, "gatehouse review:", err)
		return ExitError
	}
	defer sess.Close()
	if sess.Agents == nil {
		fmt.Fprintln(stderr, "gatehouse review: the session has no agents")
		return ExitError
	}
	rep, err := review.Run(ctx, review.Options{Agents: sess.Agents, Repo: repo, Target: target})
	printFindings(stdout, rep.Findings, *asJSON)
	if err != nil {
		fmt.Fprintln(stderr, "gatehouse review:", err)
		return ExitError
	}
	if rep.Summary != "" {
		fmt.Fprintln(stderr, termsafe.Text(rep.Summary))
	}
	for _, f := range rep.Findings {
		if f.Severity.AtLeast(least) {
			return ExitFindings
		}
	}
	return ExitOK
}

// printFindings prints findings as JSON Lines or for a person (model text
// made safe for a terminal).
func printFindings(w io.Writer, fs []review.Finding, asJSON bool) {
	for _, f := range fs {
		if asJSON {
			b, _ := json.Marshal(f)
			fmt.Fprintf(w, "%s\n", b)
			continue
		}
		fmt.Fprintf(w, "%s %s %s\n", strings.ToUpper(string(f.Severity)), termsafe.Line(f.Anchor()), termsafe.Line(f.Title))
		for _, l := range strings.Split(termsafe.Text(f.Explanation), "\n") {
			fmt.Fprintf(w, "    %s\n", l)
		}
		if f.Suggestion != "" {
			fmt.Fprintln(w, "    suggested:")
			for _, l := range strings.Split(termsafe.Text(strings.TrimRight(f.Suggestion, "\n")), "\n") {
				fmt.Fprintf(w, "      %s\n", l)
			}
		}
		fmt.Fprintln(w)
	}
}

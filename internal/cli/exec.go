package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"gatehouse/internal/agent"
	"gatehouse/internal/approval"
	"gatehouse/internal/events"
	"gatehouse/internal/images"
	"gatehouse/internal/policy"
	"gatehouse/internal/protocol"
	"gatehouse/internal/sessionhost"
	"gatehouse/internal/settings"
	"gatehouse/internal/workspace"
)

// Exit codes of Exec, one per stop reason.
const (
	ExitCompleted         = 0
	ExitError             = 1
	ExitBlockedByApproval = 3
	ExitMaxSteps          = 4
	// ExitBudgetExhausted: a spending or token limit stopped the run
	// (turn.stopped.reason budget_exhausted).
	ExitBudgetExhausted = 6
	ExitCancelled       = 130
)

const execUsage = `usage: gatehouse exec --workspace DIR --prompt TEXT [--approval plan|auto|safe|manual]
                     [--model M] [--base-url URL] [--api chat|responses] [--max-steps N] [--json]
                     [--max-cost USD] [--max-tokens N] [--max-calls-per-minute N]
                     [--mcp-config FILE]... [--image FILE]... [--skill NAME]
                     [--experimental teams]

Runs one turn of the agent without the window and exits when it stops.
--prompt - reads the prompt from stdin. The model server and key come from
--base-url, OPENAI_BASE_URL / OPENAI_API_KEY, then the app's saved settings;
the model from --model, then the saved settings. --api responses speaks
OpenAI's Responses API instead of Chat Completions (also GATEHOUSE_API, then
the saved settings; default chat).

Without --json the assistant's text goes to stdout, tool calls and a summary
to stderr. With --json stdout carries one event per line,
{seq, sessionId, turnId, type, payload}, the same events the window gets; the
last is turn.stopped, whose payload.reason is the stop reason.

--approval safe (the default) runs reading tools without asking and asks for
every call that changes files or runs a command; manual asks for every call;
auto for none (the workspace boundary holds in every mode); plan offers only
tools that read and ends with the model's plan, printed to stdout (with --json,
turn.stopped's payload.plan), without changing anything. Questions are asked
on the terminal (stderr, answers from stdin); without a terminal a call that
needs approval is rejected and the turn ends as blocked_by_approval. The
model's questions (ask_user) are asked there too; without a terminal the
model reads that no one can answer, and decides itself.

--image sends a PNG, JPEG, WEBP or GIF (up to 20 MB, scaled to 2048 px)
with the prompt; a model that cannot see images is sent none, and exec
stops before the turn saying why.

Skills: the catalog the window offers (the user's skill folders, a trusted
workspace's) is offered to the model here too; --skill NAME loads that skill
with the prompt, as choosing /NAME in the window does.

MCP servers: the user's list (mcp.json in the app's config folder) and each
--mcp-config file start before the turn; a workspace's .gatehouse/mcp.json
never does here (trust it in the window). Their calls pass the same approval.

Hooks: the user's (hooks.json in the app's config folder) run as in the
window; a workspace's .gatehouse/hooks.json runs, confined, only once trusted
in the window as it is now (an untrusted one is listed on stderr, never run).

Budgets: --max-cost stops the run once its model requests cost USD (each
priced at the model that answered it, subagents' included), --max-tokens once
they used N tokens (input + output); both replace the settings' session limits.
The settings' daily limits hold too, shared by every Gatehouse process of the
user that day. At 80% of a limit one line says so on stderr; at 100% the run
stops with reason budget_exhausted (exit 6), naming the limit. A model with no
known price counts tokens only. --max-calls-per-minute N makes a tool call
past N in a minute wait for its turn (it does not stop the run).

Agent teams (experimental): --experimental teams (or the settings' teams.on)
gives the lead the team tools. The run then ends when the team is quiet: the
lead's turn ended, no teammate works or waits for an answer, and no message
woke the lead again (a teammate's message to an idle lead starts a turn of
the lead's). Idle teammates are then stopped; the exit status is that of the
lead's last turn. Teammates' events carry their name (agent and teammate)
and the lead's team_spawn call (parentCallId); with --json the output goes on
past the lead's first turn.stopped until the team is quiet. SIGINT stops the
lead and every teammate.

Processes the agent started are stopped when the turn ends. The session is
saved like the window's and can be resumed there.

Exit status: 0 completed, 3 blocked_by_approval, 4 max_steps,
6 budget_exhausted, 130 cancelled (SIGINT), 1 error, 2 bad usage.
`

// ExecMain runs `gatehouse exec` for main: SIGINT or SIGTERM cancels the
// turn (exit 130).
func ExecMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runMain("exec", Exec, args, stdin, stdout, stderr)
}

// runMain runs a headless subcommand for main in the default environment:
// SIGINT or SIGTERM cancels its context.
func runMain(name string, run func(context.Context, []string, sessionhost.Env, io.Reader, io.Writer, io.Writer) int,
	args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	env, err := sessionhost.DefaultEnv()
	if err != nil {
		fmt.Fprintf(stderr, "gatehouse %s: %v\n", name, err)
		return ExitError
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return run(ctx, args, env, stdin, stdout, stderr)
}

type execOptions struct {
	workspace, prompt, approval, model, baseURL, api string
	skill                                            string
	maxSteps                                         int
	budget                                           protocol.BudgetLimits
	json                                             bool
	mcpConfigs                                       repeated
	imageFiles                                       repeated
	images                                           []images.Image
	canSee                                           func() bool
	experimental                                     repeated
}

// Exec runs `gatehouse exec`; args are the command line after "exec".
// Cancelling ctx cancels the turn. It returns the exit status.
func Exec(ctx context.Context, args []string, env sessionhost.Env, stdin io.Reader, stdout, stderr io.Writer) int {
	var o execOptions
	fs := flag.NewFlagSet("gatehouse exec", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, execUsage) }
	fs.StringVar(&o.workspace, "workspace", "", "the folder the agent works in")
	fs.StringVar(&o.prompt, "prompt", "", "the message to send; - reads stdin")
	fs.StringVar(&o.approval, "approval", env.ApprovalDefault(), "approval mode: auto, safe or manual (default: GATEHOUSE_APPROVAL, else safe)")
	fs.StringVar(&o.model, "model", "", "model name")
	fs.StringVar(&o.baseURL, "base-url", "", "OpenAI-compatible API base URL")
	fs.StringVar(&o.api, "api", "", "model API: chat or responses (default: GATEHOUSE_API, the saved one, else chat)")
	fs.IntVar(&o.maxSteps, "max-steps", 0, "most model requests in the turn (default 50)")
	fs.Float64Var(&o.budget.SessionCost, "max-cost", 0, "stop once the run's model requests cost this many US dollars")
	fs.Int64Var(&o.budget.SessionTokens, "max-tokens", 0, "stop once the run used this many tokens (input + output)")
	fs.IntVar(&o.budget.CallsPerMinute, "max-calls-per-minute", 0, "a tool call past this many in a minute waits")
	fs.BoolVar(&o.json, "json", false, "print events as JSON lines")
	fs.Var(&o.mcpConfigs, "mcp-config", "an mcpServers file to start besides the user's (repeatable)")
	fs.Var(&o.imageFiles, "image", "an image to send with the prompt (repeatable)")
	fs.StringVar(&o.skill, "skill", "", "a skill to load with the prompt, as /NAME in the window")
	fs.Var(&o.experimental, "experimental", "turn on an experimental feature: teams")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitUsage
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "gatehouse exec: "+format+"\n", a...)
		return ExitUsage
	}
	switch {
	case fs.NArg() > 0:
		return usage("unexpected arguments %q (quote the prompt)", fs.Args())
	case o.workspace == "":
		return usage("--workspace is required")
	case o.prompt == "":
		return usage("--prompt is required")
	case o.maxSteps < 0:
		return usage("--max-steps must be positive")
	}
	for _, f := range o.experimental {
		if f != "teams" {
			return usage("unknown --experimental %q: the one experimental feature is teams", f)
		}
	}
	if err := settings.ValidateBudget(o.budget); err != nil {
		return usage("%v (--max-cost, --max-tokens, --max-calls-per-minute)", err)
	}
	if o.prompt == "-" {
		b, err := io.ReadAll(stdin)
		if err != nil || strings.TrimSpace(string(b)) == "" {
			return usage("--prompt -: no prompt on stdin")
		}
		o.prompt = string(b)
	}
	if _, err := approval.ParseMode(o.approval); err != nil {
		return usage("unknown --approval %q: use auto, safe or manual", o.approval)
	}
	if !settings.ValidAPI(o.api) {
		return usage("unknown --api %q: use chat or responses", o.api)
	}
	client, eff, err := sessionhost.OpenModel(env, settings.Flags{BaseURL: o.baseURL, Model: o.model, API: o.api})
	switch {
	case errors.Is(err, sessionhost.ErrReadSettings):
		fmt.Fprintln(stderr, "gatehouse exec:", err)
		return ExitError
	case err != nil:
		return usage("%v", err)
	}
	ws, err := workspace.New(o.workspace, workspace.Options{})
	if err != nil {
		return usage("%v", err)
	}
	if o.images, o.canSee, err = execImages(ctx, client, eff.Settings, env.DataDir, o.imageFiles); err != nil {
		fmt.Fprintln(stderr, "gatehouse exec:", err)
		return ExitError
	}
	return runTurn(ctx, o, env, eff, ws, client, stdin, stdout, stderr)
}

// runTurn runs the one turn in a session the host recipe opens, as the
// window opens its sessions: same tools, middleware, gate, AGENTS.md, file
// recorder, checkpoints, supervisor and sandbox, MCP servers and agents.
func runTurn(ctx context.Context, o execOptions, env sessionhost.Env, eff settings.Effective, ws *workspace.Workspace,
	model agent.Model, stdin io.Reader, stdout, stderr io.Writer) int {
	var out events.Sink
	teamOut := newTeamEnd(len(o.experimental) > 0 || eff.Settings.Teams.On)
	if o.json {
		out = &jsonLines{w: stdout, team: teamOut}
	} else {
		out = &textOutput{stdout: stdout, stderr: stderr, team: teamOut}
	}
	out = events.Fanout(out, &budgetNotice{w: stderr})
	mode, _ := approval.ParseMode(o.approval) // checked by Exec
	// Closed after the session (defers run last first): nothing of this
	// run is left over.
	h := sessionhost.New(env, sessionhost.Options{Logger: warnLogger(stderr),
		Settings: func() settings.Effective { return eff }})
	defer h.Close()
	save := policy.Where{}
	if env.ConfigDir != "" {
		save = h.PolicyWhere(ws.Root())
	}
	gateway, asker := terminalHost(stdin, stderr, save)
	var last lastTurn
	tellUntrustedHooks(stderr, ws.Root(), env.ConfigDir)
	sess, err := h.Open(sessionhost.Spec{Workspace: ws, Model: model, Sink: out,
		Mode: func() approval.Mode { return mode }, Gateway: gateway, Asker: asker,
		MaxSteps: o.maxSteps, Budget: o.budget, MCPFiles: o.mcpConfigs, MCPWait: ctx, CanSee: o.canSee,
		Teams: len(o.experimental) > 0, OnStop: last.heard})
	if err != nil {
		fmt.Fprintln(stderr, "gatehouse exec:", err)
		return ExitError
	}
	text := o.prompt
	if o.skill != "" {
		if text, _, err = sess.Skills.UserPrompt(o.skill, text); err != nil {
			sess.Close()
			fmt.Fprintln(stderr, "gatehouse exec: --skill:", err)
			return ExitUsage
		}
	}
	outcome, err := sess.RunPrompt(ctx, agent.Prompt{Text: text, Images: o.images})
	if err == nil && sess.Teams() != nil {
		outcome = untilQuiet(ctx, sess, &last)
	}
	teamOut.end()
	// Processes end with the command; their last events are not printed
	// (turn.stopped is the last line), but they are saved with the session.
	sess.Close()
	if err != nil {
		fmt.Fprintln(stderr, "gatehouse exec:", err)
		return ExitError
	}
	return exitCode(outcome.Reason)
}

// warnLogger reports what goes wrong beside the turn (the session log
// could not be written) on stderr.
func warnLogger(stderr io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && (a.Key == slog.TimeKey || a.Key == slog.LevelKey) {
				return slog.Attr{}
			}
			if len(groups) == 0 && a.Key == slog.MessageKey {
				a.Value = slog.StringValue("gatehouse exec: " + a.Value.String())
			}
			return a
		}}))
}

func exitCode(r protocol.StopReason) int {
	switch r {
	case protocol.StopCompleted:
		return ExitCompleted
	case protocol.StopBlockedByApproval:
		return ExitBlockedByApproval
	case protocol.StopMaxSteps:
		return ExitMaxSteps
	case protocol.StopBudgetExhausted:
		return ExitBudgetExhausted
	case protocol.StopCancelled:
		return ExitCancelled
	}
	return ExitError
}

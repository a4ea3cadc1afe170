package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"gatehouse/internal/checkpoint"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"gatehouse/internal/agent"
	"gatehouse/internal/agents"
	"gatehouse/internal/approval"
	"gatehouse/internal/attach"
	"gatehouse/internal/events"
	"gatehouse/internal/images"
	"gatehouse/internal/llm"
	"gatehouse/internal/proc"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime"
	cmdhost "gatehouse/internal/sandbox/host"
	"gatehouse/internal/session"
	"gatehouse/internal/settings"
	"gatehouse/internal/tools"
	"gatehouse/internal/trust"
	"gatehouse/internal/workspace"
)

// Exit codes of Exec, one per stop reason.
const (
	ExitCompleted         = 0
	ExitError             = 1
	ExitBlockedByApproval = 3
	ExitMaxSteps          = 4
	ExitCancelled         = 130
)

const execUsage = `usage: gatehouse exec --workspace DIR --prompt TEXT [--approval auto|safe|manual]
                     [--model M] [--base-url URL] [--api chat|responses] [--max-steps N] [--json]
                     [--mcp-config FILE]... [--image FILE]...

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
auto for none (the workspace boundary holds in every mode). Questions are asked
on the terminal (stderr, answers from stdin); without a terminal a call that
needs approval is rejected and the turn ends as blocked_by_approval.

--image sends a PNG, JPEG, WEBP or GIF (up to 20 MB, scaled to 2048 px)
with the prompt; a model that cannot see images is sent none, and exec
stops before the turn saying why.

MCP servers: the user's list (mcp.json in the app's config folder) and each
--mcp-config file start before the turn; a workspace's .gatehouse/mcp.json
never does here (trust it in the window). Their calls pass the same approval.

Processes the agent started are stopped when the turn ends. The session is
saved like the window's and can be resumed there.

Exit status: 0 completed, 3 blocked_by_approval, 4 max_steps, 130 cancelled
(SIGINT), 1 error, 2 bad usage.
`

// ExecEnv is what Exec takes from its surroundings; tests pass their own.
type ExecEnv struct {
	// ConfigDir is the settings folder (settings.DefaultDir).
	ConfigDir string
	// DataDir holds the session logs (session.DefaultDir); empty: the
	// session is not saved.
	DataDir string
	// LookupEnv reads OPENAI_API_KEY, OPENAI_BASE_URL and GATEHOUSE_API
	// (os.LookupEnv).
	LookupEnv func(string) (string, bool)
	// MaxRetries bounds the retries of a failed model request (the app
	// uses llm.DefaultMaxRetries; tests 0).
	MaxRetries int
	// ProcEnv is the environment of the processes tools start (nil: the
	// login shell's).
	ProcEnv func() []string
	// Policy limits the session's tools (zero: all, the main agent's).
	Policy tools.Policy
	// OnSession, when set, is called with the session before its turn
	// starts (tests look at what it was assembled from).
	OnSession func(*runtime.Session)
}

// DefaultExecEnv is the environment of `gatehouse exec`.
func DefaultExecEnv() (ExecEnv, error) {
	cfg, err := settings.DefaultDir()
	if err != nil {
		return ExecEnv{}, err
	}
	data, _ := session.DefaultDir() // no data folder: not saved
	return ExecEnv{ConfigDir: cfg, DataDir: data, LookupEnv: os.LookupEnv, MaxRetries: llm.DefaultMaxRetries,
		ProcEnv: (&proc.LoginEnv{}).Environ}, nil
}

// ExecMain runs `gatehouse exec` for main: SIGINT or SIGTERM cancels the
// turn (exit 130).
func ExecMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	env, err := DefaultExecEnv()
	if err != nil {
		fmt.Fprintln(stderr, "gatehouse exec:", err)
		return ExitError
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return Exec(ctx, args, env, stdin, stdout, stderr)
}

type execOptions struct {
	workspace, prompt, approval, model, baseURL, api   string
	maxSteps, contextWindow, microCompactAt, compactAt int
	sandbox                                            cmdhost.Config // from the saved settings
	undoStore                                          int64          // the undo store's bound (0: the default)
	json                                               bool
	mcpConfigs                                         repeated
	imageFiles                                         repeated
	images                                             []images.Image
	canSee                                             func() bool
	// models gives an agent definition's model by name (nil: none).
	models func(name string) (agent.Model, error)
}

// Exec runs `gatehouse exec`; args are the command line after "exec".
// Cancelling ctx cancels the turn. It returns the exit status.
func Exec(ctx context.Context, args []string, env ExecEnv, stdin io.Reader, stdout, stderr io.Writer) int {
	var o execOptions
	fs := flag.NewFlagSet("gatehouse exec", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, execUsage) }
	fs.StringVar(&o.workspace, "workspace", "", "the folder the agent works in")
	fs.StringVar(&o.prompt, "prompt", "", "the message to send; - reads stdin")
	fs.StringVar(&o.approval, "approval", settings.ApprovalSafe, "approval mode: auto, safe or manual")
	fs.StringVar(&o.model, "model", "", "model name")
	fs.StringVar(&o.baseURL, "base-url", "", "OpenAI-compatible API base URL")
	fs.StringVar(&o.api, "api", "", "model API: chat or responses (default: GATEHOUSE_API, the saved one, else chat)")
	fs.IntVar(&o.maxSteps, "max-steps", 0, "most model requests in the turn (default 50)")
	fs.BoolVar(&o.json, "json", false, "print events as JSON lines")
	fs.Var(&o.mcpConfigs, "mcp-config", "an mcpServers file to start besides the user's (repeatable)")
	fs.Var(&o.imageFiles, "image", "an image to send with the prompt (repeatable)")
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
	if env.LookupEnv == nil {
		env.LookupEnv = func(string) (string, bool) { return "", false }
	}
	client, eff, err := OpenModel(env, settings.Flags{BaseURL: o.baseURL, Model: o.model, API: o.api})
	switch {
	case errors.Is(err, ErrReadSettings):
		fmt.Fprintln(stderr, "gatehouse exec:", err)
		return ExitError
	case err != nil:
		return usage("%v", err)
	}
	o.contextWindow = eff.Settings.ContextWindow
	o.sandbox = cmdhost.Config{Mode: eff.Settings.Sandbox, DenyTCP: eff.Settings.SandboxDenyTCP}
	o.microCompactAt, o.compactAt = eff.Settings.MicroCompactAt, eff.Settings.CompactAt
	o.undoStore = eff.Settings.UndoStoreBytes()
	ws, err := workspace.New(o.workspace, workspace.Options{})
	if err != nil {
		return usage("%v", err)
	}
	if o.images, o.canSee, err = execImages(ctx, client, eff.Settings, env.DataDir, o.imageFiles); err != nil {
		fmt.Fprintln(stderr, "gatehouse exec:", err)
		return ExitError
	}
	o.models = func(name string) (agent.Model, error) {
		return llm.New(llm.Config{API: llm.API(eff.Settings.API), BaseURL: eff.Settings.BaseURL, APIKey: eff.APIKey.Reveal(),
			Model: name, MaxRetries: env.MaxRetries})
	}
	return runTurn(ctx, o, env, ws, client, stdin, stdout, stderr)
}

// runTurn runs the one turn through the session runtime, as the window
// runs its turns: same tools, middleware, gate, AGENTS.md, file recorder and
// notes about files changed outside during the turn.
func runTurn(ctx context.Context, o execOptions, env ExecEnv, ws *workspace.Workspace, model agent.Model,
	stdin io.Reader, stdout, stderr io.Writer) int {
	id := session.NewID()
	var out events.Sink
	if o.json {
		out = &jsonLines{w: stdout}
	} else {
		out = &textOutput{stdout: stdout, stderr: stderr}
	}
	var log *session.Log
	if env.DataDir != "" {
		var err error
		if log, err = session.NewStore(env.DataDir).Create(ws.Root(), id); err != nil {
			fmt.Fprintln(stderr, "gatehouse exec: the session will not be saved:", err)
		}
	}
	mode, _ := approval.ParseMode(o.approval) // checked by Exec
	opts := runtime.Options{
		ID: id, Workspace: ws, Model: model, Sink: out, Log: log,
		Mode: func() approval.Mode { return mode }, Gateway: terminalGateway(stdin, stderr),
		MaxSteps: o.maxSteps, ContextWindow: o.contextWindow, MicroCompactAt: o.microCompactAt, CompactAt: o.compactAt, Logger: warnLogger(stderr), Policy: env.Policy,
		Images: attach.StoreIn(env.DataDir), CanSee: o.canSee,
	}
	// Commands run under the supervisor helper beside the binary, confined
	// as the saved settings say, like the window's. Closed after the
	// session (defers run last first): nothing of this run is left over.
	cmds := cmdhost.New(env.DataDir, slog.New(slog.DiscardHandler))
	defer cmds.Close()
	opts.Processes = cmds.Options(proc.Options{Env: env.ProcEnv}, ws.Root(), cmds.Scratch(id), func() cmdhost.Config { return o.sandbox })
	servers, err := startMCP(ctx, env.ConfigDir, ws.Root(), o.mcpConfigs, env.ProcEnv, stderr)
	if err != nil {
		if log != nil {
			log.Close()
		}
		fmt.Fprintln(stderr, "gatehouse exec: MCP servers:", err)
		return ExitError
	}
	defer servers.Close()
	opts.Providers = servers.Providers()
	if env.DataDir != "" {
		st, err := checkpoint.Open(CheckpointDir(env.DataDir), o.undoStore)
		if err != nil {
			fmt.Fprintln(stderr, "gatehouse exec: no undo for this session:", err)
		} else {
			opts.Checkpoints = st
		}
	}
	sess, err := runtime.New(opts)
	if err != nil {
		if log != nil {
			log.Close()
		}
		fmt.Fprintln(stderr, "gatehouse exec:", err)
		return ExitError
	}
	// Subagents: built-ins, the user's definitions and the workspace's when
	// the folder is trusted for them. A child's events carry its parent call.
	_, errs := agents.Setup(sess, agents.HostOptions{ConfigDir: env.ConfigDir, Models: o.models,
		Trusted:   agents.WorkspaceTrust(trust.NewStore(env.ConfigDir)),
		Processes: proc.Options{Env: env.ProcEnv}})
	for _, err := range errs {
		fmt.Fprintln(stderr, "gatehouse exec: agent definition left out:", err)
	}
	if env.OnSession != nil {
		env.OnSession(sess)
	}
	outcome, err := sess.RunPrompt(ctx, agent.Prompt{Text: o.prompt, Images: o.images})
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
	case protocol.StopCancelled:
		return ExitCancelled
	}
	return ExitError
}

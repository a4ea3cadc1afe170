// Package acp is the runtime's host for editors that speak the Agent Client
// Protocol (Zed and others) over stdio: `gatehouse acp`.
//
// Each ACP session is one runtime session (runtime.New), assembled exactly
// as the window's and `gatehouse exec`'s are: the same tools through the
// same workspace boundary, the same approval gate, modes and session rules,
// the same stop reasons. What differs is how it asks and how it shows:
//
//   - Asking is a session/request_permission round trip to the editor
//     (gateway.go): allow_once, reject_once, and allow_always when the gate
//     proposes a rule for the call (the exact scope the window's dialog
//     shows).
//   - Showing is session/update notifications (updates.go): message chunks,
//     tool_call and tool_call_update with kind, title, status, locations and
//     content (a diff per file for apply_patch and write_file, the command
//     and its output for bash).
//
// Files are read and written on disk by the runtime's own tools and commands
// run in its own process registry: the editor's fs and terminal methods are
// not used (its unsaved buffers and the disk would disagree).
//
// Stop reasons: completed → end_turn; blocked_by_approval → end_turn, after
// a last message saying what was blocked; cancelled → cancelled (never a
// JSON-RPC error); max_steps → max_turn_requests; error → a JSON-RPC error
// carrying the readable message.
//
// Cancellation follows the SDK: session/cancel cancels the running prompt,
// and a permission request still waiting resolves as cancelled. A new
// session/prompt on a session whose prompt still runs cancels the running
// one (the SDK cancels its context), and starts once it has stopped.
//
// stdout is the protocol: nothing else is ever written there. Logging goes
// to stderr, the SDK's own diagnostics too (slog.Default is set to stderr).
package acp

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"gatehouse/internal/agent"
	"gatehouse/internal/approval"
	"gatehouse/internal/llm"
	"gatehouse/internal/proc"
	"gatehouse/internal/session"
	"gatehouse/internal/settings"
)

const usage = `usage: gatehouse acp [--approval manual|safe|auto] [--model M] [--base-url URL] [--api chat|responses]

Speaks the Agent Client Protocol on stdin/stdout, for editors such as Zed.
Each session works in the folder the editor gives as its cwd. The model
server and key come from --base-url, OPENAI_BASE_URL / OPENAI_API_KEY, then
the app's saved settings; the model from --model, then the saved settings
(as gatehouse exec). --approval is the starting mode of every session
(default safe; also GATEHOUSE_APPROVAL); the editor can switch it per
session (manual, safe, auto). Logs go to stderr.
`

// Env is what Run takes from its surroundings; tests pass their own.
type Env struct {
	// ConfigDir is the settings folder (settings.DefaultDir).
	ConfigDir string
	// DataDir holds the session logs (session.DefaultDir); empty: sessions
	// are not saved and cannot be loaded.
	DataDir string
	// LookupEnv reads OPENAI_API_KEY, OPENAI_BASE_URL, GATEHOUSE_API and
	// GATEHOUSE_APPROVAL (os.LookupEnv).
	LookupEnv func(string) (string, bool)
	// MaxRetries bounds the retries of a failed model request.
	MaxRetries int
	// ProcEnv is the environment of the processes tools start (nil: the
	// login shell's).
	ProcEnv func() []string
	// MaxSteps bounds the model requests of one prompt (0: the agent's
	// default).
	MaxSteps int
}

// DefaultEnv is the environment of `gatehouse acp`.
func DefaultEnv() (Env, error) {
	cfg, err := settings.DefaultDir()
	if err != nil {
		return Env{}, err
	}
	data, _ := session.DefaultDir() // no data folder: not saved
	return Env{ConfigDir: cfg, DataDir: data, LookupEnv: os.LookupEnv, MaxRetries: llm.DefaultMaxRetries,
		ProcEnv: (&proc.LoginEnv{}).Environ}, nil
}

// Main runs `gatehouse acp` for main: it serves until stdin closes or
// SIGINT/SIGTERM, and returns the exit status.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	env, err := DefaultEnv()
	if err != nil {
		fmt.Fprintln(stderr, "gatehouse acp:", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return Run(ctx, args, env, stdin, stdout, stderr)
}

// Run parses args (the command line after "acp"), opens the model and
// serves the protocol on in/out until the editor closes in or ctx ends.
func Run(ctx context.Context, args []string, env Env, in io.Reader, out io.Writer, stderr io.Writer) int {
	fs := flag.NewFlagSet("gatehouse acp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	if env.LookupEnv == nil {
		env.LookupEnv = func(string) (string, bool) { return "", false }
	}
	defMode := settings.ApprovalSafe
	if v, ok := env.LookupEnv("GATEHOUSE_APPROVAL"); ok && v != "" {
		defMode = v
	}
	mode := fs.String("approval", defMode, "starting approval mode: manual, safe or auto")
	model := fs.String("model", "", "model name")
	baseURL := fs.String("base-url", "", "OpenAI-compatible API base URL")
	api := fs.String("api", "", "model API: chat or responses")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "gatehouse acp: "+format+"\n", a...)
		return 2
	}
	m, err := approval.ParseMode(*mode)
	switch {
	case fs.NArg() > 0:
		return bad("unexpected arguments %q", fs.Args())
	case err != nil:
		return bad("%v", err)
	case !settings.ValidAPI(*api):
		return bad("unknown --api %q: use chat or responses", *api)
	}
	client, window, err := openModel(env, settings.Flags{BaseURL: *baseURL, Model: *model, API: *api})
	if err != nil {
		return bad("%v", err)
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	// The SDK reports malformed lines through slog.Default: never stdout.
	slog.SetDefault(logger)
	err = Serve(ctx, Options{Model: client, ContextWindow: window, Mode: m, DataDir: env.DataDir,
		ProcEnv: env.ProcEnv, MaxSteps: env.MaxSteps, Logger: logger}, in, out)
	if err != nil {
		fmt.Fprintln(stderr, "gatehouse acp:", err)
		return 1
	}
	return 0
}

// openModel resolves the model settings as exec does (flags, then the
// environment, then the saved settings) and opens the client.
func openModel(env Env, f settings.Flags) (agent.Model, int, error) {
	eff, err := settings.NewStore(env.ConfigDir).Resolve(f, env.LookupEnv)
	if err != nil {
		return nil, 0, fmt.Errorf("reading the settings: %w", err)
	}
	if err := eff.Check(); err != nil {
		return nil, 0, err
	}
	if eff.Settings.Model == "" {
		return nil, 0, errors.New("no model: pass --model or choose one in the app's settings")
	}
	client, err := llm.New(llm.Config{API: llm.API(eff.Settings.API), BaseURL: eff.Settings.BaseURL,
		APIKey: eff.APIKey.Reveal(), Model: eff.Settings.Model, MaxRetries: env.MaxRetries})
	if err != nil {
		return nil, 0, err
	}
	return client, eff.Settings.ContextWindow, nil
}

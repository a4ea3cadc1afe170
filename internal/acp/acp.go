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
// The MCP servers the editor passes in session/new or session/load (stdio
// and HTTP) start with the session, over the user's own list, as exec's do
// (mcp.go); their tools pass the same gate.
//
// Files are read and written on disk by the runtime's own tools and commands
// run in its own process registry: the editor's fs and terminal methods are
// not used (its unsaved buffers and the disk would disagree).
//
// Stop reasons: completed → end_turn; blocked_by_approval → end_turn, after
// a last message saying what was blocked; cancelled → cancelled (never a
// JSON-RPC error); max_steps → max_turn_requests; budget_exhausted → a last
// message naming the limit, then max_tokens for a token limit and end_turn
// for a spending limit; error → a JSON-RPC error carrying the readable
// message. ACP sessions spend against the settings' limits and the user's
// day ledger like every host.
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

	"gatehouse/internal/approval"
	"gatehouse/internal/sessionhost"
	"gatehouse/internal/settings"
)

const usage = `usage: gatehouse acp [--approval plan|manual|safe|auto] [--model M] [--base-url URL] [--api chat|responses]
                    [--max-steps N]

Speaks the Agent Client Protocol on stdin/stdout, for editors such as Zed.
Each session works in the folder the editor gives as its cwd. The model
server and key come from --base-url, OPENAI_BASE_URL / OPENAI_API_KEY, then
the app's saved settings; the model from --model, then the saved settings
(as gatehouse exec). --approval is the starting mode of every session
(default safe; also GATEHOUSE_APPROVAL); the editor can switch it per
session (manual, safe, auto). Logs go to stderr.
`

// Main runs `gatehouse acp` for main: it serves until stdin closes or
// SIGINT/SIGTERM, and returns the exit status.
func Main(args []string, version string, stdin io.Reader, stdout, stderr io.Writer) int {
	env, err := sessionhost.DefaultEnv()
	if err != nil {
		fmt.Fprintln(stderr, "gatehouse acp:", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	env.Version = version
	return Run(ctx, args, env, stdin, stdout, stderr)
}

// Run parses args (the command line after "acp"), opens the model and
// serves the protocol on in/out until the editor closes in or ctx ends.
func Run(ctx context.Context, args []string, env sessionhost.Env, in io.Reader, out io.Writer, stderr io.Writer) int {
	fs := flag.NewFlagSet("gatehouse acp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	mode := fs.String("approval", env.ApprovalDefault(), "starting approval mode: plan, manual, safe or auto")
	model := fs.String("model", "", "model name")
	baseURL := fs.String("base-url", "", "OpenAI-compatible API base URL")
	api := fs.String("api", "", "model API: chat or responses")
	maxSteps := fs.Int("max-steps", 0, "most model requests in one prompt (default 50)")
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
	case *maxSteps < 0:
		return bad("--max-steps must be positive")
	}
	client, eff, err := sessionhost.OpenModel(env, settings.Flags{BaseURL: *baseURL, Model: *model, API: *api})
	switch {
	case errors.Is(err, sessionhost.ErrReadSettings):
		fmt.Fprintln(stderr, "gatehouse acp:", err)
		return 1
	case err != nil:
		return bad("%v", err)
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	// The SDK reports malformed lines through slog.Default: never stdout.
	slog.SetDefault(logger)
	// Sessions open through the host recipe, as the window's and exec's.
	h := sessionhost.New(env, sessionhost.Options{Logger: logger, Settings: func() settings.Effective { return eff }})
	defer h.Close()
	err = Serve(ctx, Options{Host: h, Model: client, Vision: sessionhost.ModelVision(client, eff.Settings), Mode: m,
		MaxSteps: *maxSteps, Logger: logger, Version: env.Version}, in, out)
	if err != nil {
		fmt.Fprintln(stderr, "gatehouse acp:", err)
		return 1
	}
	return 0
}

// Package cli holds Gatehouse's headless subcommands.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"

	"gatehouse/internal/proc"
	cmdhost "gatehouse/internal/sandbox/host"
	"gatehouse/internal/sessionhost"
	"gatehouse/internal/settings"
	"gatehouse/internal/tools"
	"gatehouse/internal/tools/builtin"
	"gatehouse/internal/tools/web"
	"gatehouse/internal/workspace"
)

// Exit codes of Tool.
const (
	ExitOK        = 0
	ExitToolError = 1
	ExitUsage     = 2
)

const toolUsage = `usage: gatehouse tool NAME --workspace DIR [--args JSON] [--read-only DIR]...

Runs one tool outside the GUI, through the workspace boundary, with no
approval asked, and prints its JSON result. For apply_patch, when --args is
absent the raw patch text is read from stdin.

Exit status: 0 success, 1 the tool reported an error (its JSON is printed),
2 bad usage.
`

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// Tool runs `gatehouse tool NAME --workspace DIR [--args JSON]`; args are
// the command line after "tool". It returns the exit status.
func Tool(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gatehouse tool", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, toolUsage) }
	wsDir := fs.String("workspace", "", "the workspace root")
	argsJSON := fs.String("args", "", "the tool's arguments as a JSON object")
	var readOnly multiFlag
	fs.Var(&readOnly, "read-only", "an extra read-only root (repeatable)")

	// NAME may come before or after the flags.
	name := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		name, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitUsage
	}
	rest := fs.Args()
	if name == "" && len(rest) > 0 {
		name, rest = rest[0], rest[1:]
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "gatehouse tool: "+format+"\n\n", a...)
		fmt.Fprint(stderr, toolUsage)
		return ExitUsage
	}
	if name == "" {
		return usage("missing tool NAME")
	}
	if len(rest) > 0 {
		return usage("unexpected arguments %q", rest)
	}
	if *wsDir == "" {
		return usage("--workspace is required")
	}
	ws, err := workspace.New(*wsDir, workspace.Options{ReadOnlyRoots: readOnly})
	if err != nil {
		return usage("%v", err)
	}
	// Processes a call starts end when the command exits. Commands run under
	// the supervisor helper, confined as the saved settings say, as in
	// every other host.
	env, err := sessionhost.DefaultEnv()
	if err != nil {
		return usage("%v", err)
	}
	cmds := cmdhost.New(env.DataDir, slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	defer cmds.Close()
	cfg := cmdhost.Config{}
	if saved, err := settings.NewStore(env.ConfigDir).Load(); err == nil {
		cfg = cmdhost.ConfigOf(saved)
	}
	cmds.ConfigDir = env.ConfigDir
	setting := sessionhost.WithPolicyDenies(env.ConfigDir, ws.Root(), func() cmdhost.Config { return cfg })
	network := cmds.Network("tool", setting)
	procs := proc.NewRegistry(cmds.Options(proc.Options{Env: env.ProcEnv}, ws.Root(), cmds.Scratch("tool"), setting, network))
	defer procs.CloseAll()
	var tool tools.Tool
	var names []string
	for _, t := range builtin.ToolsWith(ws, procs, web.Config{Network: network}) {
		names = append(names, t.Spec().Name)
		if t.Spec().Name == name {
			tool = t
		}
	}
	if tool == nil {
		return usage("unknown tool %q (tools: %s)", name, strings.Join(names, ", "))
	}
	// One call, then exit: collect garbage less often than a long-lived
	// process would.
	debug.SetGCPercent(400)
	run := func(ctx context.Context) (tools.Result, error) { return tool.Run(ctx, json.RawMessage(*argsJSON)) }
	if *argsJSON == "" {
		if tr, ok := tool.(tools.TextRunner); ok {
			// apply_patch: the patch text, given as is.
			text, err := io.ReadAll(stdin)
			if err != nil {
				return usage("reading the %s input from stdin: %v", name, err)
			}
			run = func(ctx context.Context) (tools.Result, error) { return tr.RunText(ctx, string(text)) }
		} else {
			run = func(ctx context.Context) (tools.Result, error) { return tool.Run(ctx, json.RawMessage("{}")) }
		}
	} else if !json.Valid([]byte(*argsJSON)) {
		return usage("--args is not valid JSON")
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res, err := run(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "gatehouse tool %s: %v\n", name, err)
		res = tools.Fail(tools.CodeIOError, err.Error(), "")
	}
	stdout.Write(res.Output)
	io.WriteString(stdout, "\n")
	if res.IsError {
		return ExitToolError
	}
	return ExitOK
}

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"gatehouse/internal/acp"
	"gatehouse/internal/cli"
	"gatehouse/internal/worktree"
)

// subcommand is a word after `gatehouse` that runs headless. run dispatches
// through this table and the help is printed from it, so a new subcommand
// is listed in --help (TestHelpNamesEverySubcommand holds it to that).
type subcommand struct {
	names   []string // the name, then its aliases
	args    string   // what follows the name in the usage line
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

func subcommands() []subcommand {
	return []subcommand{
		{[]string{"exec"}, "--workspace DIR --prompt TEXT [--approval MODE] [--json] [--worktree [NAME]] ...",
			"run one turn of the agent without the window (--worktree: in a new or the named worktree session)",
			func(args []string, stdout, stderr io.Writer) int {
				args, err := worktree.ExecArgs(context.Background(), args, stderr)
				if err != nil {
					fmt.Fprintln(stderr, "gatehouse exec:", err)
					return cli.ExitError
				}
				return cli.ExecMain(args, os.Stdin, stdout, stderr)
			}},
		{[]string{"acp"}, "[--approval MODE] [--model M] [--base-url URL] [--api chat|responses]",
			"serve editors (Zed, …) over the Agent Client Protocol on stdin/stdout",
			func(args []string, stdout, stderr io.Writer) int {
				return acp.Main(args, version, os.Stdin, stdout, stderr)
			}},
		{[]string{"tool"}, "NAME --workspace DIR [--args JSON] [--read-only DIR]...",
			"run one tool through the workspace boundary; its JSON result on stdout",
			func(args []string, stdout, stderr io.Writer) int { return cli.Tool(args, os.Stdin, stdout, stderr) }},
		{[]string{"mcp"}, "list [--workspace DIR] [--mcp-config FILE]... [--json]",
			"start the MCP servers a session would and print each one's state and tools (exit 1 when any failed)",
			func(args []string, stdout, stderr io.Writer) int { return cli.MCPMain(args, stdout, stderr) }},
		{[]string{"undo"}, "--workspace DIR [--session ID] [--turn N] [--dry-run] [--conflicts keep|restore]",
			"take back a turn's file changes; prints the diff it applies",
			func(args []string, stdout, stderr io.Writer) int { return cli.UndoMain(args, stdout, stderr) }},
		{[]string{"worktree"}, worktree.Usage,
			"sessions in their own git worktree: make, list, merge into the branch they came from, keep the branch, or discard",
			func(args []string, stdout, stderr io.Writer) int { return worktree.Main(args, stdout, stderr) }},
		{[]string{"version", "--version", "-version"}, "", "print the version",
			func(_ []string, stdout, _ io.Writer) int { fmt.Fprintf(stdout, "gatehouse %s\n", version); return 0 }},
		{[]string{"help", "--help", "-help", "-h"}, "", "print this help",
			func(_ []string, stdout, _ io.Writer) int { printHelp(stdout); return 0 }},
	}
}

func findSubcommand(word string) (subcommand, bool) {
	for _, c := range subcommands() {
		for _, n := range c.names {
			if n == word {
				return c, true
			}
		}
	}
	return subcommand{}, false
}

// windowFlags are the flags of the window (no subcommand).
type windowFlags struct {
	workspace, approval, baseURL, model, api *string
}

func defineWindowFlags(fs *flag.FlagSet) windowFlags {
	return windowFlags{
		workspace: fs.String("workspace", os.Getenv("GATEHOUSE_WORKSPACE"), "the folder the agent works in"),
		approval:  fs.String("approval", os.Getenv("GATEHOUSE_APPROVAL"), "approval mode: manual, safe or auto (default: the saved one, else safe)"),
		baseURL:   fs.String("base-url", "", "OpenAI-compatible API base URL (overrides OPENAI_BASE_URL and the saved one)"),
		model:     fs.String("model", "", "model name (overrides the saved one)"),
		api:       fs.String("api", "", "model API: chat (Chat Completions) or responses (overrides GATEHOUSE_API and the saved one)"),
	}
}

// printHelp lists the subcommands and the window's flags.
func printHelp(w io.Writer) {
	fmt.Fprintln(w, "usage: gatehouse [flags]             open the window")
	fmt.Fprintln(w, "       gatehouse COMMAND [args]      run headless (no display needed)")
	fmt.Fprintln(w, "\nCommands:")
	for _, c := range subcommands() {
		name := c.names[0]
		if len(c.names) > 1 {
			name += " (" + strings.Join(c.names[1:], ", ") + ")"
		}
		fmt.Fprintf(w, "  %-36s %s\n", name, c.summary)
		if c.args != "" {
			fmt.Fprintf(w, "      gatehouse %s %s\n", c.names[0], c.args)
		}
	}
	fmt.Fprintln(w, "\nFlags of the window:")
	fs := flag.NewFlagSet("gatehouse", flag.ContinueOnError)
	defineWindowFlags(fs)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprintln(w, "\n`gatehouse COMMAND --help` prints a command's flags; `man gatehouse` says more.")
}

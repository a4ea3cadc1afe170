// Package commands is gatehouse's command line: the subcommands that run
// headless (one table: main dispatches through it and --help is printed
// from it) and the window's flags.
package commands

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

// Subcommand is a word after `gatehouse` that runs headless. main
// dispatches through this table and the help is printed from it, so a new
// subcommand is listed in --help (TestHelpNamesEverySubcommand holds it to
// that).
type Subcommand struct {
	Names   []string // the name, then its aliases
	Args    string   // what follows the name in the usage line
	Summary string
	Run     func(args []string, stdout, stderr io.Writer) int
}

// List is the table, for a build of version.
func List(version string) []Subcommand {
	return []Subcommand{
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
		{[]string{"review"}, "[--workspace DIR] [--uncommitted | --staged | --base REF | --commit SHA] [--json] [--fail-on SEVERITY]",
			"have the reviewer agent review a diff and print its findings (exit 5 when one is at or above --fail-on, default high)",
			func(args []string, stdout, stderr io.Writer) int {
				return cli.ReviewMain(args, os.Stdin, stdout, stderr)
			}},
		{[]string{"export"}, "--session ID [--workspace DIR] [--format md|html|jsonl] [--turns A-B] [--images embed|list] [-o FILE]",
			"write a saved session (or some of its turns) as Markdown, one self-contained HTML page or JSON Lines, secrets masked",
			func(args []string, stdout, stderr io.Writer) int { return cli.ExportMain(args, stdout, stderr) }},
		{[]string{"policy"}, "check|list|add|remove [--workspace DIR] [--json] -- 'COMMAND LINE'",
			"the standing policy: which rule decides a command (exit 0 allow, 3 ask, 4 deny), list, add, remove",
			func(args []string, stdout, stderr io.Writer) int { return cli.PolicyMain(args, stdout, stderr) }},
		{[]string{"worktree"}, worktree.Usage,
			"sessions in their own git worktree: make, list, merge into the branch they came from, keep the branch, or discard",
			func(args []string, stdout, stderr io.Writer) int { return worktree.Main(args, stdout, stderr) }},
		{[]string{"version", "--version", "-version"}, "", "print the version",
			func(_ []string, stdout, _ io.Writer) int { fmt.Fprintf(stdout, "gatehouse %s\n", version); return 0 }},
		{[]string{"help", "--help", "-help", "-h"}, "", "print this help",
			func(_ []string, stdout, _ io.Writer) int { PrintHelp(stdout, version); return 0 }},
	}
}

// Find returns the subcommand named word.
func Find(word, version string) (Subcommand, bool) {
	for _, c := range List(version) {
		for _, n := range c.Names {
			if n == word {
				return c, true
			}
		}
	}
	return Subcommand{}, false
}

// WindowFlags are the flags of the window (no subcommand).
type WindowFlags struct {
	Workspace, Approval, BaseURL, Model, API *string
}

// DefineWindowFlags defines the window's flags on fs.
func DefineWindowFlags(fs *flag.FlagSet) WindowFlags {
	return WindowFlags{
		Workspace: fs.String("workspace", os.Getenv("GATEHOUSE_WORKSPACE"), "the folder the agent works in"),
		Approval:  fs.String("approval", os.Getenv("GATEHOUSE_APPROVAL"), "approval mode: plan, manual, safe or auto (default: the saved one, else safe)"),
		BaseURL:   fs.String("base-url", "", "OpenAI-compatible API base URL (overrides OPENAI_BASE_URL and the saved one)"),
		Model:     fs.String("model", "", "model name (overrides the saved one)"),
		API:       fs.String("api", "", "model API: chat (Chat Completions) or responses (overrides GATEHOUSE_API and the saved one)"),
	}
}

// PrintHelp lists the subcommands and the window's flags.
func PrintHelp(w io.Writer, version string) {
	fmt.Fprintln(w, "usage: gatehouse [flags]             open the window")
	fmt.Fprintln(w, "       gatehouse COMMAND [args]      run headless (no display needed)")
	fmt.Fprintln(w, "\nCommands:")
	for _, c := range List(version) {
		name := c.Names[0]
		if len(c.Names) > 1 {
			name += " (" + strings.Join(c.Names[1:], ", ") + ")"
		}
		fmt.Fprintf(w, "  %-36s %s\n", name, c.Summary)
		if c.Args != "" {
			fmt.Fprintf(w, "      gatehouse %s %s\n", c.Names[0], c.Args)
		}
	}
	fmt.Fprintln(w, "\nFlags of the window:")
	fs := flag.NewFlagSet("gatehouse", flag.ContinueOnError)
	DefineWindowFlags(fs)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprintln(w, "\n`gatehouse COMMAND --help` prints a command's flags; `man gatehouse` says more.")
}

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
	"path/filepath"
	"strings"

	"gatehouse/internal/mcp"
	"gatehouse/internal/sandbox/host"
	"gatehouse/internal/sessionhost"
	"gatehouse/internal/settings"
	"gatehouse/internal/termsafe"
	"gatehouse/internal/trust"
)

const mcpUsage = `usage: gatehouse mcp list [--workspace DIR] [--mcp-config FILE]... [--json]

Starts the MCP servers a session would start and prints each one's state and
tools: the user's list (mcp.json in Gatehouse's config folder), each
--mcp-config file, and the workspace's .gatehouse/mcp.json once the folder is
trusted in the window (an untrusted one is named, never started). Every
server is stopped before it exits.

Exit status: 0 every server ready or disabled, 1 any failed, 2 bad usage.
`

// repeated is a flag given any number of times.
type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, ",") }
func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }

// MCPMain runs `gatehouse mcp` for main.
func MCPMain(args []string, stdout, stderr io.Writer) int {
	cfg, err := settings.DefaultDir()
	if err != nil {
		fmt.Fprintln(stderr, "gatehouse mcp:", err)
		return ExitError
	}
	return MCP(context.Background(), args, cfg, stdout, stderr)
}

// MCP runs `gatehouse mcp`; args follow "mcp", configDir is Gatehouse's
// config folder.
func MCP(ctx context.Context, args []string, configDir string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "list" {
		fmt.Fprint(stderr, mcpUsage)
		return ExitUsage
	}
	fs := flag.NewFlagSet("gatehouse mcp list", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, mcpUsage) }
	workspace := fs.String("workspace", "", "the workspace (default: the current folder)")
	asJSON := fs.Bool("json", false, "print the servers as JSON")
	var files repeated
	fs.Var(&files, "mcp-config", "another mcpServers file (repeatable)")
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitUsage
	}
	if *workspace == "" {
		*workspace, _ = os.Getwd()
	}
	ws, err := filepath.Abs(*workspace)
	if err != nil {
		fmt.Fprintln(stderr, "gatehouse mcp:", err)
		return ExitUsage
	}
	// A trusted workspace's servers run confined, as in the window.
	sup := host.New("", slog.New(slog.NewTextHandler(io.Discard, nil)))
	confine := func(dir string) mcp.Confinement {
		helper, p, why := sup.Confinement(dir, os.Environ(), sessionhost.WithPolicyDenies(configDir, dir, func() host.Config { return host.Config{} })())
		return mcp.Confinement{Helper: helper, Policy: p, Why: why, Walls: p.Walls()}
	}
	m, src, err := sessionhost.StartServers(ctx, sessionhost.ServerSpec{ConfigDir: configDir, Workspace: ws,
		Files: files, Trust: trust.NewStore(configDir), Confine: confine})
	if m == nil {
		fmt.Fprintln(stderr, "gatehouse mcp:", err)
		return ExitError
	}
	if src.Untrusted != nil {
		fmt.Fprintf(stderr, "gatehouse mcp: %s is not trusted, so its servers were not started (open the folder in the window to review it):\n", mcp.WorkspaceConfig)
		for _, l := range src.Untrusted.Lines {
			fmt.Fprintln(stderr, "  "+termsafe.Line(l))
		}
	}
	for _, r := range src.Refused {
		fmt.Fprintln(stderr, "gatehouse mcp: "+termsafe.Line(r.Reason)+": its servers were not started")
	}
	list := m.Statuses()
	m.Close()
	failed := false
	for _, s := range list {
		failed = failed || s.State == mcp.StateFailed
	}
	if *asJSON {
		if list == nil {
			list = []mcp.Status{}
		}
		b, _ := json.MarshalIndent(list, "", "  ")
		fmt.Fprintln(stdout, string(b))
	} else {
		printServers(stdout, list)
	}
	if failed {
		return ExitError
	}
	return ExitOK
}

// printServers lists the servers; every text a server or a config file
// supplied (names, errors, stderr, tool descriptions) is escaped.
func printServers(w io.Writer, list []mcp.Status) {
	L := termsafe.Line
	if len(list) == 0 {
		fmt.Fprintln(w, "No MCP servers configured.")
		return
	}
	for _, s := range list {
		state := string(s.State)
		if s.State == mcp.StateReady {
			state = fmt.Sprintf("ready, %d tools", len(s.Tools))
		}
		fmt.Fprintf(w, "%s: %s  (%s; from %s)\n", L(s.Name), state, L(s.Target), L(s.Source))
		if s.Error != "" {
			fmt.Fprintf(w, "  error: %s\n", L(s.Error))
		}
		for _, l := range strings.Split(s.Stderr, "\n") {
			if l != "" {
				fmt.Fprintf(w, "  stderr: %s\n", L(l))
			}
		}
		for _, t := range s.Tools {
			off := ""
			if !t.Enabled {
				off = " (switched off)"
			}
			desc := strings.Join(strings.Fields(t.Description), " ")
			if len(desc) > 100 {
				desc = desc[:97] + "..."
			}
			fmt.Fprintf(w, "  %s%s  %s\n", L(t.SurfaceName), off, L(desc))
		}
	}
}

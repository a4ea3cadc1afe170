package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"gatehouse/internal/atomicfile"
	"gatehouse/internal/attach"
	"gatehouse/internal/export"
	"gatehouse/internal/session"
	"gatehouse/internal/sessionhost"
	"gatehouse/internal/settings"
	"gatehouse/internal/workspace"
)

const exportUsage = `usage: gatehouse export --session ID [--workspace DIR] [--format md|html|jsonl]
                       [--turns A-B] [--images embed|list] [-o FILE]

Writes a saved session, or the turns A to B of it (A-, A or A-B, counting
from 1), to stdout or FILE: Markdown (the default), one self-contained HTML
page (no script, nothing loaded from the network), or JSON Lines of its
transcript items. Calls are folded, with their diff, command and output, and
who approved or rejected them under which rule; each turn's end says its
tokens and cost. Masked: the API key, the values of environment variables
whose names mark a secret (…KEY, …TOKEN, …SECRET, …PASSWORD, …), and
well-known token shapes (sk-…, ghp_…, AKIA…, private-key blocks).
--images embed puts the session's pictures in the file, list (the default)
names them.

Exit status: 0 written, 1 error (no such session, a file that cannot be
written), 2 bad usage.
`

// ExportMain runs `gatehouse export` for main.
func ExportMain(args []string, stdout, stderr io.Writer) int {
	env, err := sessionhost.DefaultEnv()
	if err != nil {
		fmt.Fprintln(stderr, "gatehouse export:", err)
		return ExitError
	}
	return Export(args, env, os.Environ(), stdout, stderr)
}

// Export runs `gatehouse export`; environ is the environment whose secret
// values are masked.
func Export(args []string, env sessionhost.Env, environ []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gatehouse export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, exportUsage) }
	id := fs.String("session", "", "the session's id (required)")
	wsDir := fs.String("workspace", "", "the session's workspace (default: found by the id)")
	format := fs.String("format", export.Markdown, "md, html or jsonl")
	turns := fs.String("turns", "", "the turns to export: A-B, A- or A")
	images := fs.String("images", "list", "embed or list the pictures")
	out := fs.String("o", "", "the file to write (default: stdout)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitUsage
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "gatehouse export: "+format+"\n", a...)
		return ExitUsage
	}
	fail := func(err error) int {
		fmt.Fprintln(stderr, "gatehouse export:", err)
		return ExitError
	}
	o := export.Options{Format: *format}
	var err error
	switch {
	case fs.NArg() > 0:
		return usage("unexpected arguments %q", fs.Args())
	case *id == "":
		return usage("--session is required")
	case *format != export.Markdown && *format != export.HTML && *format != export.JSONLines:
		return usage("unknown --format %q: md, html or jsonl", *format)
	case *images != "embed" && *images != "list":
		return usage("unknown --images %q: embed or list", *images)
	}
	if err := session.CheckID(*id); err != nil {
		return usage("%v", err)
	}
	if o.From, o.To, err = export.ParseTurns(*turns); err != nil {
		return usage("%v", err)
	}
	l, err := findSession(env.DataDir, *wsDir, *id)
	if err != nil {
		return fail(err)
	}
	eff, err := settings.NewStore(env.ConfigDir).Resolve(settings.Flags{}, env.LookupEnv)
	if err != nil {
		return fail(err)
	}
	o.Mask = export.NewMasker([]string{eff.APIKey.Reveal()}, environ)
	if *images == "embed" {
		o.EmbedImages, o.Image = true, attach.StoreIn(env.DataDir).Get
	}
	var b bytes.Buffer
	if err := export.Write(&b, l, o); err != nil {
		return fail(err)
	}
	if *out == "" {
		_, err = stdout.Write(b.Bytes())
	} else {
		err = atomicfile.Write(*out, b.Bytes(), 0o600)
	}
	if err != nil {
		return fail(err)
	}
	return ExitOK
}

// findSession loads session id: from the workspace's logs when one is
// given, else from whichever workspace's logs hold it.
func findSession(dataDir, wsDir, id string) (*session.Loaded, error) {
	if dataDir == "" {
		return nil, errors.New("sessions are not saved here (no data folder)")
	}
	store := session.NewStore(dataDir)
	if wsDir != "" {
		ws, err := workspace.New(wsDir, workspace.Options{})
		if err != nil {
			return nil, err
		}
		return store.Load(ws.Root(), id)
	}
	paths, _ := filepath.Glob(filepath.Join(dataDir, "sessions", "*", id+".jsonl"))
	if len(paths) == 0 {
		return nil, fmt.Errorf("no saved session %s", id)
	}
	return session.LoadFile(paths[0])
}

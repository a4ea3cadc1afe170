package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"gatehouse/internal/checkpoint"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime"
	"gatehouse/internal/session"
)

// UndoMain is `gatehouse undo`: it undoes a turn of a session of a
// workspace (default: the latest session, its last turn that changed
// files), printing the diff it applies (or would, with --dry-run). Exit 0:
// done; 1: a file was skipped or could not be restored; 2: bad usage.
func UndoMain(args []string, stdout, stderr io.Writer) int {
	data, err := session.DefaultDir()
	if err != nil {
		fmt.Fprintln(stderr, "gatehouse undo:", err)
		return ExitError
	}
	return Undo(args, data, stdout, stderr)
}

// Undo runs `gatehouse undo` against the data folder dataDir (its undo
// store and session logs).
func Undo(args []string, dataDir string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gatehouse undo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	wsDir := fs.String("workspace", "", "the workspace folder (required)")
	sessionID := fs.String("session", "", "the session (default: the latest one with changes in the workspace)")
	turn := fs.Int("turn", 0, "the turn to undo (default: the last one that changed files)")
	dry := fs.Bool("dry-run", false, "print the diff and change nothing")
	conflicts := fs.String("conflicts", "keep", "a file changed since the turn: keep (leave it) or restore (bring back the prior content)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: gatehouse undo --workspace DIR [--session ID] [--turn N] [--dry-run] [--conflicts keep|restore]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return ExitUsage
	}
	if *wsDir == "" || fs.NArg() > 0 || (*conflicts != "keep" && *conflicts != "restore") || *turn < 0 {
		fs.Usage()
		return ExitUsage
	}
	ws, err := runtime.OpenWorkspace(*wsDir)
	if err != nil {
		fmt.Fprintln(stderr, "gatehouse undo:", err)
		return ExitUsage
	}
	store, err := checkpoint.Open(checkpoint.Dir(dataDir), 0)
	if err != nil {
		fmt.Fprintln(stderr, "gatehouse undo:", err)
		return ExitError
	}
	id := *sessionID
	if id == "" {
		if id, err = store.Latest(ws.Root()); err != nil || id == "" {
			fmt.Fprintln(stderr, "gatehouse undo: no session changed files in", ws.Root())
			return ExitError
		}
	}
	changes, err := store.Changes(id)
	if err != nil {
		fmt.Fprintln(stderr, "gatehouse undo:", err)
		return ExitError
	}
	unit, ok := pickUnit(changes, id, *turn)
	if !ok {
		fmt.Fprintf(stderr, "gatehouse undo: session %s has no changes to undo%s\n", id, map[bool]string{true: fmt.Sprintf(" in turn %d", *turn)}[*turn > 0])
		return ExitError
	}
	u := checkpoint.Undoer{Store: store, Session: id, WS: ws}
	plan, err := u.Plan(changes, unit)
	if err != nil {
		fmt.Fprintln(stderr, "gatehouse undo:", err)
		return ExitError
	}
	choice := checkpoint.Choice(*conflicts)
	sel := checkpoint.Selection{Choices: map[string]checkpoint.Choice{}}
	skipped := 0
	for _, pf := range plan {
		sel.Choices[pf.Path] = choice
		printPlanFile(stdout, pf, choice)
		if pf.State == checkpoint.StateLost || (pf.State == checkpoint.StateChangedSince && choice == checkpoint.Keep) {
			skipped++
		}
	}
	if *dry {
		fmt.Fprintf(stderr, "gatehouse undo: dry run of %s: nothing was changed\n", unit)
	} else {
		out, _, err := u.Apply(changes, unit, sel, func(cs ...checkpoint.Change) error { return store.Append(id, cs...) })
		if err != nil {
			fmt.Fprintln(stderr, "gatehouse undo:", err)
			return ExitError
		}
		skipped = len(out.Skipped)
		if len(out.Restored)+len(out.Skipped) > 0 {
			logUndo(session.NewStore(dataDir), ws.Root(), id, out, stderr)
		}
		fmt.Fprintf(stderr, "gatehouse undo: %s: restored %d file(s), skipped %d; undo it with: gatehouse undo --workspace %s --session %s (it is %s)\n",
			unit, len(out.Restored), skipped, *wsDir, id, out.Unit)
	}
	if skipped > 0 {
		return ExitError
	}
	return 0
}

// logUndo records the undo in the session's log, as the window does, so a
// resumed session shows it. A session without a log (exec without a data
// folder) has nowhere to record it.
func logUndo(sessions *session.Store, root, id string, out checkpoint.Outcome, stderr io.Writer) {
	log, _, err := sessions.Open(root, id)
	if err != nil {
		fmt.Fprintln(stderr, "gatehouse undo: the undo is not in the session's log:", err)
		return
	}
	defer log.Close()
	u := out
	if err := log.AppendItem(protocol.TranscriptItem{Kind: protocol.ItemUndo, ID: out.Unit, Undo: &u}); err != nil {
		fmt.Fprintln(stderr, "gatehouse undo: the undo is not in the session's log:", err)
	}
}

// pickUnit finds turn n of session id (0: the last turn that changed files).
func pickUnit(changes []checkpoint.Change, id string, n int) (checkpoint.Unit, bool) {
	units := checkpoint.Units(changes)
	if n > 0 {
		want := checkpoint.TurnUnit(id, n)
		for _, u := range units {
			if u == want {
				return u, true
			}
		}
		return "", false
	}
	for i := len(units) - 1; i >= 0; i-- {
		if !units[i].IsUndo() {
			return units[i], true
		}
	}
	return "", false
}

func printPlanFile(w io.Writer, pf checkpoint.PlanFile, choice checkpoint.Choice) {
	switch pf.State {
	case checkpoint.StateLost:
		fmt.Fprintf(w, "# %s: %s\n", pf.Path, pf.Note)
		return
	case checkpoint.StateUnchanged:
		fmt.Fprintf(w, "# %s: already as it was\n", pf.Path)
		return
	case checkpoint.StateChangedSince:
		if choice == checkpoint.Keep {
			fmt.Fprintf(w, "# %s: changed since the turn: kept (--conflicts restore brings back the prior content)\n", pf.Path)
			return
		}
		fmt.Fprintf(w, "# %s: changed since the turn: restored anyway (--conflicts restore)\n", pf.Path)
	}
	if pf.Binary {
		fmt.Fprintf(w, "# %s: binary file restored\n", pf.Path)
		return
	}
	by := make([]string, len(pf.By))
	for i, b := range pf.By {
		by[i] = string(b)
	}
	sort.Strings(by)
	fmt.Fprintf(w, "# %s (changed by %s)\n%s", pf.Path, strings.Join(by, ", "), pf.UndoDiff)
}

package checkpoint

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"gatehouse/internal/patch"
	"gatehouse/internal/workspace"
)

// State says what undoing does to one file.
type State string

const (
	StateRestore      State = "restore"       // back to its prior content
	StateChangedSince State = "changed-since" // changed again since: the user chooses
	StateLost         State = "not-restorable"
	StateUnchanged    State = "unchanged" // already as it was
)

// PlanFile is one file of an undo: what the unit did to it and what undoing
// would do now.
type PlanFile struct {
	Path  string `json:"path"`
	By    []By   `json:"by"`
	State State  `json:"state"`
	Note  string `json:"note,omitempty"`
	// Binary: a side is not text; the diffs are empty.
	Binary bool `json:"binary,omitempty"`
	// TurnDiff is what the unit did (prior → after); SinceDiff what changed
	// since (after → now, changed-since only); UndoDiff what undoing writes
	// (now → prior).
	TurnDiff  string `json:"turnDiff"`
	SinceDiff string `json:"sinceDiff,omitempty"`
	UndoDiff  string `json:"undoDiff"`
	// Hunks of UndoDiff, ids "path#n", each restorable on its own.
	Hunks []Hunk `json:"hunks,omitempty"`
	// Prior, Now: the whole contents (text only) for a side-by-side view.
	Prior string `json:"prior"`
	Now   string `json:"now"`

	before, after, cur Version
	curBytes, prior    []byte
}

// Hunk is one "@@" chunk of an undo diff.
type Hunk struct {
	ID                 string `json:"id"`
	OldStart, OldLines int
	NewStart, NewLines int
	Diff               string `json:"diff"`
}

// Choice is what to do with a file changed since the unit.
type Choice string

const (
	Keep    Choice = "keep"
	Restore Choice = "restore"
)

// Selection limits an undo: Files (nil: every file) and Hunks ("path#n"; a
// file listed in Files with hunks listed restores only those), and per file
// changed since, the user's Choice (missing: keep).
type Selection struct {
	Files   []string          `json:"files,omitempty"`
	Hunks   []string          `json:"hunks,omitempty"`
	Choices map[string]Choice `json:"choices,omitempty"`
}

// Outcome is what an undo did.
type Outcome struct {
	Unit     Unit     `json:"unit"` // the undo's own unit, to undo it
	Restored []string `json:"restored"`
	// Skipped lists files left as they are, with why.
	Skipped map[string]string `json:"skipped,omitempty"`
}

// Undoer plans and applies undos of one session's units.
type Undoer struct {
	Store   *Store
	Session string
	WS      Resolver
}

// Plan says what undoing unit would do to each file it changed.
func (u Undoer) Plan(changes []Change, unit Unit) ([]PlanFile, error) {
	var out []PlanFile
	for _, fc := range Fold(changes, unit) {
		pf := PlanFile{Path: fc.Path, By: fc.By, before: fc.Before, after: fc.After, Note: fc.Note}
		abs, err := u.WS.Resolve(fc.Path, workspace.Write)
		if err != nil {
			pf.State, pf.Note = StateLost, "cannot be restored: "+err.Error()
			out = append(out, pf)
			continue
		}
		pf.cur, pf.curBytes, err = current(abs)
		if err != nil {
			pf.State, pf.Note = StateLost, "cannot be restored: "+err.Error()
			out = append(out, pf)
			continue
		}
		afterBytes := u.bytes(fc.After)
		if fc.Before.Known() {
			pf.prior = u.bytes(fc.Before)
			if fc.Before.Exists && pf.prior == nil {
				pf.State, pf.Note = StateLost, "cannot be restored: its prior content was pruned from the undo store"
			}
		}
		switch {
		case pf.State != "":
		case !fc.Before.Known():
			pf.State = StateLost
			if pf.Note == "" {
				pf.Note = NoteCommand
			}
		case pf.cur.Same(fc.Before):
			pf.State = StateUnchanged
		case pf.cur.Same(fc.After):
			pf.State = StateRestore
		default:
			pf.State = StateChangedSince
		}
		pf.Binary = binary(pf.prior) || binary(afterBytes) || binary(pf.curBytes)
		if !pf.Binary {
			pf.TurnDiff, _, _ = patch.UnifiedDiff(fc.Path, fc.Path, string(u.bytesOr(fc.Before, pf.prior)), string(afterBytes), !fc.Before.Exists, !fc.After.Exists)
			if pf.State == StateChangedSince {
				pf.SinceDiff, _, _ = patch.UnifiedDiff(fc.Path, fc.Path, string(afterBytes), string(pf.curBytes), !fc.After.Exists, !pf.cur.Exists)
			}
			if fc.Before.Known() && pf.State != StateLost {
				pf.UndoDiff, _, _ = patch.UnifiedDiff(fc.Path, fc.Path, string(pf.curBytes), string(pf.prior), !pf.cur.Exists, !fc.Before.Exists)
				pf.Hunks = hunks(fc.Path, pf.UndoDiff)
				pf.Prior, pf.Now = string(pf.prior), string(pf.curBytes)
			}
		}
		out = append(out, pf)
	}
	return out, nil
}

func (u Undoer) bytes(v Version) []byte {
	if !v.Exists || !v.Known() {
		return nil
	}
	b, err := u.Store.Get(v.Hash)
	if err != nil {
		return nil
	}
	return b
}

func (u Undoer) bytesOr(v Version, b []byte) []byte {
	if b != nil {
		return b
	}
	return u.bytes(v)
}

func binary(b []byte) bool {
	n := min(len(b), 8000)
	return strings.IndexByte(string(b[:n]), 0) >= 0 || !utf8.Valid(b[:n])
}

// Apply undoes unit as planned, within sel, and records the undo as a unit
// of its own in the log (append), so it can itself be undone. A file
// changed since the unit is restored only when sel chooses Restore for it.
func (u Undoer) Apply(changes []Change, unit Unit, sel Selection, appendLog func(...Change) error) (Outcome, []PlanFile, error) {
	plan, err := u.Plan(changes, unit)
	if err != nil {
		return Outcome{}, nil, err
	}
	out := Outcome{Unit: nextUndo(changes), Skipped: map[string]string{}}
	picked := map[string]bool{}
	for _, f := range sel.Files {
		picked[f] = true
	}
	hunkSel := map[string][]int{}
	for _, h := range sel.Hunks {
		path, n, ok := strings.Cut(h, "#")
		i, err := strconv.Atoi(n)
		if ok && err == nil {
			hunkSel[path] = append(hunkSel[path], i)
		}
	}
	var recs []Change
	var pins []string
	defer func() { u.Store.Release(pins...) }()
	for _, pf := range plan {
		if sel.Files != nil && !picked[pf.Path] {
			continue
		}
		switch pf.State {
		case StateLost:
			out.Skipped[pf.Path] = pf.Note
			continue
		case StateUnchanged:
			continue
		case StateChangedSince:
			if sel.Choices[pf.Path] != Restore {
				out.Skipped[pf.Path] = "changed since: kept as it is"
				continue
			}
		}
		abs, err := u.WS.Resolve(pf.Path, workspace.Write)
		if err != nil {
			out.Skipped[pf.Path] = err.Error()
			continue
		}
		// Keep what is there now, so this undo can be undone.
		now, _, err := u.Store.keep(abs)
		if err != nil {
			out.Skipped[pf.Path] = err.Error()
			continue
		}
		pins = append(pins, now.Hash)
		target := pf.before
		if hs := hunkSel[pf.Path]; len(hs) > 0 && pf.cur.Exists && pf.before.Exists && !pf.Binary {
			b := applyHunks(pf.curBytes, pf.prior, pf.Hunks, hs)
			err = writeBytes(abs, b, pf.cur.Mode)
		} else {
			err = u.Store.write(abs, target)
		}
		if err != nil {
			out.Skipped[pf.Path] = err.Error()
			continue
		}
		after, _, err := u.Store.keep(abs)
		if err != nil {
			after = Version{Exists: true, Lost: true}
		}
		pins = append(pins, after.Hash)
		recs = append(recs, Change{Unit: out.Unit, Path: pf.Path, By: ByUndo, Before: now, After: after, At: nowFunc(), Of: unit})
		out.Restored = append(out.Restored, pf.Path)
	}
	if len(recs) > 0 && appendLog != nil {
		if err := appendLog(recs...); err != nil {
			return out, plan, fmt.Errorf("checkpoint: the undo is done but not recorded: %w", err)
		}
	}
	return out, plan, nil
}

// nextUndo names the next undo unit of a log.
func nextUndo(changes []Change) Unit {
	n := 0
	for _, u := range Units(changes) {
		if u.IsUndo() {
			n++
		}
	}
	return Unit(fmt.Sprintf("undo-%d", n+1))
}

// ErrNoUnit is returned when a session has nothing to undo.
var ErrNoUnit = errors.New("checkpoint: nothing was changed")

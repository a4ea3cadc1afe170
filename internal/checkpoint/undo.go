package checkpoint

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"gatehouse/internal/patch"
	"gatehouse/internal/protocol"
	"gatehouse/internal/sniff"
	"gatehouse/internal/workspace"
)

// What undoing does to a file (protocol.UndoState).
const (
	StateRestore      = protocol.UndoRestore
	StateChangedSince = protocol.UndoChangedSince
	StateLost         = protocol.UndoNotRestorable
	StateUnchanged    = protocol.UndoUnchanged
)

// PlanFile is one file of an undo: what the unit did to it and what undoing
// would do now.
type PlanFile struct {
	protocol.UndoFile

	before, after, cur Version
	curBytes, prior    []byte
}

// Choice is what to do with a file changed since the unit.
type Choice = protocol.UndoChoice

const (
	Keep    = protocol.UndoKeep
	Restore = protocol.UndoRestored
)

// Selection limits an undo (protocol.UndoSelection): Files (nil: every
// file), Hunks ("path#n": only those of a file), and per file changed since
// the unit, the user's Choice (missing: keep).
type Selection = protocol.UndoSelection

// Outcome is what an undo did: its own unit (to undo it), the unit it took
// back, the files restored and those skipped, with why.
type Outcome = protocol.UndoAppliedPayload

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
		pf := PlanFile{before: fc.Before, after: fc.After}
		pf.Path, pf.Note, pf.Operation = fc.Path, fc.Note, operation(fc.Before, fc.After)
		for _, b := range fc.By {
			pf.By = append(pf.By, string(b))
		}
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
		pf.Binary = sniff.Binary(pf.prior) || sniff.Binary(afterBytes) || sniff.Binary(pf.curBytes)
		if !pf.Binary {
			pf.TurnDiff, _, _ = patch.UnifiedDiff(fc.Path, fc.Path, string(u.bytesOr(fc.Before, pf.prior)), string(afterBytes), !fc.Before.Exists, !fc.After.Exists)
			if pf.State == StateChangedSince {
				pf.SinceDiff, _, _ = patch.UnifiedDiff(fc.Path, fc.Path, string(afterBytes), string(pf.curBytes), !fc.After.Exists, !pf.cur.Exists)
			}
			if fc.Before.Known() && pf.State != StateLost {
				pf.UndoDiff, pf.Added, pf.Removed = patch.UnifiedDiff(fc.Path, fc.Path, string(pf.curBytes), string(pf.prior), !pf.cur.Exists, !fc.Before.Exists)
				pf.Hunks = hunks(fc.Path, pf.UndoDiff)
				pf.Prior, pf.Now = string(pf.prior), string(pf.curBytes)
			}
		}
		out = append(out, pf)
	}
	return out, nil
}

// operation is what undoing does to a file the unit took from before to
// after.
func operation(before, after Version) protocol.FileOperation {
	switch {
	case !before.Exists:
		return protocol.FileDelete
	case !after.Exists:
		return protocol.FileAdd
	}
	return protocol.FileUpdate
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

// Apply undoes unit as planned, within sel, and records the undo as a unit
// of its own in the log (append), so it can itself be undone. A file
// changed since the unit is restored only when sel chooses Restore for it.
func (u Undoer) Apply(changes []Change, unit Unit, sel Selection, appendLog func(...Change) error) (Outcome, []PlanFile, error) {
	plan, err := u.Plan(changes, unit)
	if err != nil {
		return Outcome{}, nil, err
	}
	out := Outcome{Unit: string(nextUndo(changes)), Of: string(unit), Skipped: map[string]string{}}
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
			picked[path] = true
		}
	}
	var recs []Change
	var pins []string
	defer func() { u.Store.Release(pins...) }()
	for _, pf := range plan {
		if len(picked) > 0 && !picked[pf.Path] {
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
		recs = append(recs, Change{Unit: Unit(out.Unit), Path: pf.Path, By: ByUndo, Before: now, After: after, At: nowFunc(), Of: unit})
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

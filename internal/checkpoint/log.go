package checkpoint

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// nowFunc is the clock of log lines and blob touches.
var nowFunc = time.Now

// By says who made a change.
type By string

const (
	ByTool    By = "tool"    // a file tool of the agent (write_file, apply_patch, …)
	ByCommand By = "command" // a command of the agent, seen by the watcher
	ByUndo    By = "undo"    // an undo the user made
)

// Version is one state of a file: absent, or a content (by hash) and mode.
type Version struct {
	Exists bool        `json:"exists"`
	Hash   string      `json:"hash,omitempty"` // "" when not known at all
	Mode   fs.FileMode `json:"mode,omitempty"`
	Size   int64       `json:"size,omitempty"`
	// Lost says the content was not kept (too large, or unknown).
	Lost bool `json:"lost,omitempty"`
}

// Known says whether the version can be brought back: absent, or kept.
func (v Version) Known() bool { return !v.Exists || (v.Hash != "" && !v.Lost) }

// Same says whether two versions are the same file content and mode.
func (v Version) Same(w Version) bool {
	if v.Exists != w.Exists {
		return false
	}
	return !v.Exists || (v.Hash == w.Hash && v.Hash != "" && v.Mode.Perm() == w.Mode.Perm())
}

// Unit names a turn (its id, "<session>-t3") or an undo ("undo-2").
type Unit string

// TurnUnit is the unit of session's turn n.
func TurnUnit(session string, n int) Unit { return Unit(fmt.Sprintf("%s-t%d", session, n)) }

// IsUndo says whether the unit is an undo.
func (u Unit) IsUndo() bool { return strings.HasPrefix(string(u), "undo-") }

// Change is one line of a session's change log.
type Change struct {
	Unit   Unit      `json:"unit"`
	Path   string    `json:"path"` // workspace-relative, slash separated
	By     By        `json:"by"`
	Tool   string    `json:"tool,omitempty"`
	CallID string    `json:"callId,omitempty"`
	Before Version   `json:"before"`
	After  Version   `json:"after"`
	At     time.Time `json:"at"`
	// Note says why Before cannot be restored ("" when it can).
	Note string `json:"note,omitempty"`
	// Of is the unit an undo took back.
	Of Unit `json:"of,omitempty"`
}

// Notes on changes that cannot be taken back.
const (
	NoteTooLarge = "cannot be restored: the file is larger than the undo store keeps"
	NoteCommand  = "changed by a command: cannot be restored"
)

func (s *Store) logPath(session string) string {
	return filepath.Join(s.dir, "sessions", session+".jsonl")
}

// validID refuses session ids that would leave the sessions folder.
func validID(id string) error {
	if id == "" || strings.ContainsAny(id, `/\`) || strings.HasPrefix(id, ".") {
		return fmt.Errorf("checkpoint: bad session id %q", id)
	}
	return nil
}

func (s *Store) rootPath(session string) string {
	return filepath.Join(s.dir, "sessions", session+".root")
}

// SetRoot records the workspace folder session works in.
func (s *Store) SetRoot(session, root string) error {
	if err := validID(session); err != nil {
		return err
	}
	if b, err := os.ReadFile(s.rootPath(session)); err == nil && string(b) == root {
		return nil
	}
	return os.WriteFile(s.rootPath(session), []byte(root), 0o600)
}

// Latest is the most recent session with changes in the workspace folder
// root, "" when there is none.
func (s *Store) Latest(root string) (string, error) {
	ids, err := s.sessionsByAge()
	if err != nil {
		return "", err
	}
	for i := len(ids) - 1; i >= 0; i-- {
		if b, err := os.ReadFile(s.rootPath(ids[i])); err == nil && string(b) == root {
			return ids[i], nil
		}
	}
	return "", nil
}

// Append adds changes to session's log.
func (s *Store) Append(session string, changes ...Change) error {
	if err := validID(session); err != nil {
		return err
	}
	var b strings.Builder
	for _, c := range changes {
		line, err := json.Marshal(c)
		if err != nil {
			return err
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := os.OpenFile(s.logPath(session), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("checkpoint log: %w", err)
	}
	_, err = f.WriteString(b.String())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Changes reads session's log; a session without one has no changes.
func (s *Store) Changes(session string) ([]Change, error) {
	if err := validID(session); err != nil {
		return nil, err
	}
	return readLog(s.logPath(session))
}

// Sessions lists the sessions with a log, the most recent last.
func (s *Store) Sessions() ([]string, error) { return s.sessionsByAge() }

func readLog(path string) ([]Change, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Change
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var c Change
		if json.Unmarshal(sc.Bytes(), &c) == nil && c.Path != "" {
			out = append(out, c) // a torn last line (a crash) is skipped
		}
	}
	return out, sc.Err()
}

// FileChange is what a unit did to one file: its first before and last
// after.
type FileChange struct {
	Path   string
	By     []By
	Before Version
	After  Version
	Note   string
}

// Fold groups the changes of unit per path, in first-change order.
func Fold(changes []Change, unit Unit) []FileChange {
	var out []FileChange
	at := map[string]int{}
	for _, c := range changes {
		if c.Unit != unit {
			continue
		}
		i, ok := at[c.Path]
		if !ok {
			at[c.Path] = len(out)
			out = append(out, FileChange{Path: c.Path, Before: c.Before, Note: c.Note})
			i = len(out) - 1
		}
		f := &out[i]
		f.After = c.After
		if !slices.Contains(f.By, c.By) {
			f.By = append(f.By, c.By)
		}
	}
	// A file left as it was found did not change.
	keep := out[:0]
	for _, f := range out {
		if !f.Before.Same(f.After) {
			keep = append(keep, f)
		}
	}
	return keep
}

// Units lists the units of changes in order of their first change.
func Units(changes []Change) []Unit {
	var out []Unit
	seen := map[Unit]bool{}
	for _, c := range changes {
		if !seen[c.Unit] {
			seen[c.Unit] = true
			out = append(out, c.Unit)
		}
	}
	return out
}

// LastAfter is the version the last change of path left, and whether any
// change of the log touched it.
func LastAfter(changes []Change, path string) (Version, bool) {
	for i := len(changes) - 1; i >= 0; i-- {
		if changes[i].Path == path {
			return changes[i].After, true
		}
	}
	return Version{}, false
}

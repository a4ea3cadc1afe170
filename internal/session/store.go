package session

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gatehouse/internal/proc"
	"gatehouse/internal/protocol"
)

// Store is the folder of session logs:
//
//	DIR/sessions/NAME-HASH/ID.jsonl
//
// one folder per workspace (its base name and a hash of its absolute path),
// one file per session. Folders are 0700 and files 0600: transcripts may hold
// secrets the tools read.
type Store struct {
	dir string
}

// NewStore returns a Store rooted at dir (DefaultDir, or a temporary folder
// in tests). Nothing is created until a session writes its first record.
func NewStore(dir string) *Store { return &Store{dir: dir} }

// DefaultDir is $XDG_DATA_HOME/gatehouse, by default ~/.local/share/gatehouse.
func DefaultDir() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "gatehouse"), nil
	}
	h, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("session logs: no data folder: %w", err)
	}
	return filepath.Join(h, ".local", "share", "gatehouse"), nil
}

// Dir is the store's root folder.
func (s *Store) Dir() string { return s.dir }

// validID reports whether id matches ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$.
// Not a regexp: compiling that bounded repeat cost every process a
// millisecond at start-up, the headless ones too.
func validID(id string) bool {
	if id == "" || len(id) > 128 || !isAlnum(id[0]) {
		return false
	}
	for i := 1; i < len(id); i++ {
		if c := id[i]; !isAlnum(c) && c != '.' && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// CheckID refuses ids that are not plain file names (ids come from the page).
func CheckID(id string) error {
	if !validID(id) {
		return fmt.Errorf("session id %q is not valid", id)
	}
	return nil
}

// WorkspaceDir is the folder holding the logs of workspace (an absolute path).
func (s *Store) WorkspaceDir(workspace string) string {
	sum := sha256.Sum256([]byte(filepath.Clean(workspace)))
	name := strings.Map(func(r rune) rune {
		if r < 0x80 && (r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return r
		}
		return '_'
	}, filepath.Base(workspace))
	if len(name) > 40 {
		name = name[:40]
	}
	return filepath.Join(s.dir, "sessions", strings.TrimLeft(name, ".")+"-"+hex.EncodeToString(sum[:8]))
}

// Path is the log file of session id in workspace.
func (s *Store) Path(workspace, id string) string {
	return filepath.Join(s.WorkspaceDir(workspace), id+".jsonl")
}

// Create returns the log of a new session. The file is written with the
// session's first record.
func (s *Store) Create(workspace, id string) (*Log, error) {
	if err := CheckID(id); err != nil {
		return nil, err
	}
	return &Log{path: s.Path(workspace, id), meta: Meta{ID: id, Workspace: workspace, CreatedMs: time.Now().UnixMilli()}}, nil
}

func createLog(path string) (*os.File, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("session log: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("session log: %w", err)
	}
	// Sync the folder so the new file's name survives a crash too.
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return f, nil
}

// Loaded is a session read back from its log.
type Loaded struct {
	Meta  Meta
	Items []protocol.TranscriptItem
	// Records are the decision, rule and other records, in order.
	Records []Record
	// Processes are those of the last processes record.
	Processes []proc.Saved
	// UpdatedMs is when the last record was written.
	UpdatedMs int64
	// Torn is set when the last line was cut short (a crash mid-write) and
	// skipped. Skipped counts other lines that could not be read.
	Torn    bool
	Skipped int

	size int64 // bytes up to the end of the last whole line
}

// Turns counts the session's turns (its user messages).
func (l *Loaded) Turns() int {
	n := 0
	for _, it := range l.Items {
		if it.Kind == protocol.ItemUser {
			n++
		}
	}
	return n
}

// Load reads session id of workspace.
func (s *Store) Load(workspace, id string) (*Loaded, error) {
	if err := CheckID(id); err != nil {
		return nil, err
	}
	return LoadFile(s.Path(workspace, id))
}

// LoadFile reads a session log. A torn last line is skipped, not an error;
// a log without its meta line is.
func LoadFile(path string) (*Loaded, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no saved session at %s", path)
		}
		return nil, err
	}
	defer f.Close()
	out := &Loaded{}
	r := bufio.NewReaderSize(f, 64<<10)
	var off int64
	haveMeta := false
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 && line[len(line)-1] != '\n' {
			// A last line without its newline was cut short mid-write.
			out.Torn = true
			break
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", path, err)
		}
		off += int64(len(line))
		out.size = off
		var rec Record
		if json.Unmarshal(bytes.TrimSpace(line), &rec) != nil {
			out.Skipped++
			continue
		}
		if !haveMeta {
			if rec.Type != RecordMeta || rec.Meta == nil {
				return nil, fmt.Errorf("%s is not a session log: it does not start with a meta line", path)
			}
			haveMeta, out.Meta = true, *rec.Meta
			out.UpdatedMs = rec.AtMs
			continue
		}
		out.UpdatedMs = max(out.UpdatedMs, rec.AtMs)
		switch rec.Type {
		case RecordItem:
			if rec.Item != nil {
				out.Items = addItem(out.Items, *rec.Item)
			}
		case RecordProcesses:
			out.Processes = rec.Processes
		case RecordMeta:
			out.Skipped++
		default:
			out.Records = append(out.Records, rec)
		}
	}
	if !haveMeta {
		return nil, fmt.Errorf("%s is not a session log: it has no meta line", path)
	}
	if out.Meta.Title == "" {
		for _, it := range out.Items {
			if it.Kind == protocol.ItemUser {
				out.Meta.Title = Title(it.Text)
				break
			}
		}
	}
	return out, nil
}

// Open reads session id of workspace and opens its log for appending. A torn
// last line is cut off first, so new records start on a line of their own.
func (s *Store) Open(workspace, id string) (*Log, *Loaded, error) {
	loaded, err := s.Load(workspace, id)
	if err != nil {
		return nil, nil, err
	}
	path := s.Path(workspace, id)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("session log: %w", err)
	}
	if fi, err := f.Stat(); err == nil && fi.Size() > loaded.size {
		if err := f.Truncate(loaded.size); err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("session log: cutting the torn last line: %w", err)
		}
	}
	return &Log{path: path, meta: loaded.Meta, f: f}, loaded, nil
}

// Info describes a past session for the list of sessions.
type Info struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	CreatedMs int64  `json:"createdMs"`
	UpdatedMs int64  `json:"updatedMs"`
	Turns     int    `json:"turns"`
}

// NewID returns a new session id: the UTC time and 8 random hex digits, so
// ids sort by creation and never collide in practice.
func NewID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return time.Now().UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

// addItem appends it to items, except that a compaction item written again
// (undone) replaces the first.
func addItem(items []protocol.TranscriptItem, it protocol.TranscriptItem) []protocol.TranscriptItem {
	if it.Kind == protocol.ItemCompaction {
		for i := range items {
			if items[i].Kind == it.Kind && items[i].ID == it.ID {
				items[i] = it
				return items
			}
		}
	}
	return append(items, it)
}

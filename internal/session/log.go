package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"gatehouse/internal/proc"
	"gatehouse/internal/protocol"
)

// A session log is a JSON-lines file, one Record a line. The first line is
// the meta record; then, in the order they finished, the transcript items
// (user messages, finished assistant messages, finished tool calls, turn
// stops), approval decisions and rules, and at the session's close the
// processes it ran. Token deltas are never written.
//
// Log's own methods write each record with one write call and sync it to
// disk before they return, so a crash loses at most the record being
// written. A Queue (Log.Queue) writes off its callers' path instead, in
// batches (see Queue for what a crash may lose). A torn last line (the crash
// hit mid-write) is skipped by Load and cut off when the log is opened again
// for appending.

// RecordType names what a log line holds. Extend, don't rename: old logs
// are read by newer versions.
type RecordType string

const (
	// RecordMeta is the first line: Meta.
	RecordMeta RecordType = "meta"
	// RecordItem is a finished transcript item: Item.
	RecordItem RecordType = "item"
	// RecordDecision is an approval decision: Data, as the approval
	// package writes it.
	RecordDecision RecordType = "decision"
	// RecordRule is a session approval rule created by a decision: Data.
	RecordRule RecordType = "rule"
	// RecordProcesses is the session's processes when it closed: Processes.
	// The last one in a log wins.
	RecordProcesses RecordType = "processes"
	// RecordChild is a child session (a subagent) that ended, in its
	// parent's log: Data, as the agents package writes it.
	RecordChild RecordType = "child"
)

// Record is one line of a session log.
type Record struct {
	Type RecordType `json:"type"`
	// AtMs is when the record was written, in Unix milliseconds.
	AtMs      int64                    `json:"atMs"`
	Meta      *Meta                    `json:"meta,omitempty"`
	Item      *protocol.TranscriptItem `json:"item,omitempty"`
	Processes []proc.Saved             `json:"processes,omitempty"`
	// Data holds the record of other types (decision, rule) as given to
	// Append.
	Data json.RawMessage `json:"data,omitempty"`
}

// Meta describes a session; it is the first line of its log.
type Meta struct {
	ID        string `json:"id"`
	Workspace string `json:"workspace"`
	CreatedMs int64  `json:"createdMs"`
	// Title is the session's first prompt, cut short.
	Title string `json:"title"`
}

// Log appends to one session's log. The file is created with the first
// record, so a session without a turn leaves nothing on disk. Its methods
// are safe for concurrent use; after Close they return ErrClosed.
type Log struct {
	path string

	mu     sync.Mutex
	meta   Meta
	f      *os.File
	closed bool
	// disk writes a batch of whole lines and syncs them (nil: to f);
	// tests inject a slow disk here.
	disk func(lines []byte) error
}

// ErrClosed is returned by a closed Log.
var ErrClosed = errors.New("session log: closed")

// titleRunes is how much of the first prompt the title keeps.
const titleRunes = 80

// Meta returns the session's meta record (its title is empty until the first
// user message).
func (l *Log) Meta() Meta {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.meta
}

// Path is the log file's path.
func (l *Log) Path() string { return l.path }

// AppendItem writes a finished transcript item. The first user message
// gives the session its title.
func (l *Log) AppendItem(it protocol.TranscriptItem) error {
	return l.write(itemRecord(it))
}

func itemRecord(it protocol.TranscriptItem) Record {
	return Record{Type: RecordItem, Item: &it, AtMs: time.Now().UnixMilli()}
}

// Append writes a record of another type (RecordDecision, RecordRule) with
// v, marshalled to JSON, as its Data.
func (l *Log) Append(typ RecordType, v any) error {
	rec, err := dataRecord(typ, v)
	if err != nil {
		return err
	}
	return l.write(rec)
}

func dataRecord(typ RecordType, v any) (Record, error) {
	switch typ {
	case RecordMeta, RecordItem, RecordProcesses:
		return Record{}, fmt.Errorf("session log: %s records have their own method", typ)
	case "":
		return Record{}, errors.New("session log: record without a type")
	}
	data, err := json.Marshal(v)
	if err != nil {
		return Record{}, fmt.Errorf("session log: %s: %w", typ, err)
	}
	return Record{Type: typ, Data: data, AtMs: time.Now().UnixMilli()}, nil
}

// SaveProcesses writes the session's processes (proc.Registry.Snapshot),
// normally once, at close. Nothing is written for none.
func (l *Log) SaveProcesses(saved []proc.Saved) error {
	if len(saved) == 0 {
		return nil
	}
	return l.write(Record{Type: RecordProcesses, Processes: saved, AtMs: time.Now().UnixMilli()})
}

// write appends rec and syncs it.
func (l *Log) write(rec Record) error { return l.writeBatch([]Record{rec}) }

// writeBatch appends recs with one write call and one sync, first creating
// the file with the meta line if needed. The first user message gives the
// session its title.
func (l *Log) writeBatch(recs []Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return ErrClosed
	}
	var lines []byte
	for _, rec := range recs {
		if it := rec.Item; it != nil && it.Kind == protocol.ItemUser && l.meta.Title == "" {
			l.meta.Title = Title(it.Text)
		}
		line, err := json.Marshal(rec)
		if err != nil {
			return fmt.Errorf("session log: %w", err)
		}
		lines = append(append(lines, line...), '\n')
	}
	if l.f == nil && l.disk == nil {
		meta, err := json.Marshal(Record{Type: RecordMeta, AtMs: recs[0].AtMs, Meta: &l.meta})
		if err != nil {
			return fmt.Errorf("session log: %w", err)
		}
		f, err := createLog(l.path)
		if err != nil {
			return err
		}
		l.f = f
		lines = append(append(meta, '\n'), lines...)
	}
	if l.disk != nil {
		return l.disk(lines)
	}
	if _, err := l.f.Write(lines); err != nil {
		return fmt.Errorf("session log: %w", err)
	}
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("session log: %w", err)
	}
	return nil
}

// Close closes the file; later appends return ErrClosed. Close may be called
// more than once.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	if l.f == nil {
		return nil
	}
	return l.f.Close()
}

// Title cuts a prompt to a session title: its first non-blank line, at most
// 80 characters.
func Title(prompt string) string {
	s := strings.TrimSpace(prompt)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	if utf8.RuneCountInString(s) <= titleRunes {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:titleRunes-1])) + "…"
}

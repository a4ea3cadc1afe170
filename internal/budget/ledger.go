package budget

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Entry is one model request's spend as the ledger keeps it.
type Entry struct {
	Session string  `json:"s"`
	Model   string  `json:"m,omitempty"`
	Tokens  int64   `json:"t"`
	Cost    float64 `json:"c,omitempty"`
}

// Ledger is the day's spending of every session of the user, in every
// process: one append-only file per local day in its folder
// (spend-YYYY-MM-DD.jsonl, one Entry a line). Add appends one whole line
// under an exclusive flock and syncs it before it returns; Today reads
// under a shared lock what it has not read yet. A line torn by a crash
// is skipped, and the next Add starts on a new line. Safe for concurrent
// use, also across processes.
type Ledger struct {
	dir string
	now func() time.Time

	mu sync.Mutex
	// day is the file read so far, to off, and what it summed.
	day    string
	off    int64
	tokens int64
	cost   float64
}

// LedgerDir is the ledger's folder in the data folder, beside the sessions.
func LedgerDir(dataDir string) string { return filepath.Join(dataDir, "budget") }

// OpenLedger returns the ledger kept in dir (made on first Add).
func OpenLedger(dir string) *Ledger { return &Ledger{dir: dir, now: time.Now} }

func (l *Ledger) path(day string) string { return filepath.Join(l.dir, "spend-"+day+".jsonl") }

func (l *Ledger) today() string { return l.now().Format(time.DateOnly) }

// Add records e in today's file, synced to disk before it returns.
func (l *Ledger) Add(e Entry) error {
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(l.dir, 0o700); err != nil {
		return fmt.Errorf("budget ledger: %w", err)
	}
	f, err := os.OpenFile(l.path(l.today()), os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("budget ledger: %w", err)
	}
	defer f.Close()
	unlock, err := lock(f, true)
	if err != nil {
		return fmt.Errorf("budget ledger: %w", err)
	}
	defer unlock()
	// A line a crash tore stays alone on its line.
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, fi.Size()-1); err == nil && last[0] != '\n' {
			line = append([]byte{'\n'}, line...)
		}
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("budget ledger: %w", err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("budget ledger: %w", err)
	}
	return nil
}

// Today returns the tokens and cost recorded today by every process.
func (l *Ledger) Today() (tokens int64, cost float64, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	day := l.today()
	if day != l.day {
		l.day, l.off, l.tokens, l.cost = day, 0, 0, 0
	}
	f, err := os.Open(l.path(day))
	if os.IsNotExist(err) {
		return l.tokens, l.cost, nil
	}
	if err != nil {
		return l.tokens, l.cost, fmt.Errorf("budget ledger: %w", err)
	}
	defer f.Close()
	unlock, err := lock(f, false)
	if err != nil {
		return l.tokens, l.cost, fmt.Errorf("budget ledger: %w", err)
	}
	defer unlock()
	if _, err := f.Seek(l.off, io.SeekStart); err != nil {
		return l.tokens, l.cost, fmt.Errorf("budget ledger: %w", err)
	}
	r := bufio.NewReader(f)
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			// A last line without its newline is being written or was
			// torn: read again next time (a torn one is then skipped).
			break
		}
		l.off += int64(len(line))
		var e Entry
		if json.Unmarshal(bytes.TrimSpace(line), &e) != nil {
			continue
		}
		l.tokens += e.Tokens
		l.cost += e.Cost
	}
	return l.tokens, l.cost, nil
}

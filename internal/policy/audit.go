package policy

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"gatehouse/internal/approval"
)

// AuditFile is the audit log's name in the data folder (kept with the
// session data); the previous generation is AuditFile + ".1".
const AuditFile = "audit.jsonl"

// maxAuditBytes bounds one generation: at that size the log moves to
// AuditFile.1 (replacing the older one) and starts again, so at most twice
// this is kept.
const maxAuditBytes = 4 << 20

// Audit is the log of every call decided without a person, as JSON Lines.
// It is safe for concurrent use; one process appends under its lock, and
// each line is written with one write call.
type Audit struct {
	path string
	max  int64
	mu   sync.Mutex
}

var (
	auditsMu sync.Mutex
	audits   = map[string]*Audit{}
)

// OpenAudit returns the process's audit log in dataDir.
func OpenAudit(dataDir string) *Audit {
	p := filepath.Join(dataDir, AuditFile)
	auditsMu.Lock()
	defer auditsMu.Unlock()
	if a, ok := audits[p]; ok {
		return a
	}
	a := &Audit{path: p, max: maxAuditBytes}
	audits[p] = a
	return a
}

// Append adds e (approval.Config.Audit). An error is returned, never
// raised: the call already ran or was refused.
func (a *Audit) Append(e approval.AuditEntry) error {
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	a.mu.Lock()
	defer a.mu.Unlock()
	if fi, err := os.Stat(a.path); err == nil && fi.Size()+int64(len(b)) > a.max {
		if err := os.Rename(a.path, a.path+".1"); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Dir(a.path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(a.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	return errors.Join(err, f.Close())
}

// Filter picks audit entries; a zero field picks all.
type Filter struct {
	Session string
	Tool    string
	By      approval.DecidedBy
	Rule    string // a session rule's or a standing rule's id
	Since   time.Time
	// Text is matched, case-insensitively, against the call's summary.
	Text string
}

func (f Filter) keeps(e approval.AuditEntry) bool {
	if f.Session != "" && e.Session != f.Session || f.Tool != "" && e.Tool != f.Tool || f.By != "" && e.By != f.By {
		return false
	}
	if !f.Since.IsZero() && e.Time.Before(f.Since) {
		return false
	}
	if f.Text != "" && !strings.Contains(strings.ToLower(e.Summary), strings.ToLower(f.Text)) {
		return false
	}
	if f.Rule != "" {
		hit := false
		for _, id := range e.RuleIDs {
			hit = hit || id == f.Rule
		}
		for _, r := range e.Standing {
			hit = hit || r.ID == f.Rule
		}
		return hit
	}
	return true
}

// List returns the entries f keeps, oldest first, at most limit of the
// newest (limit <= 0: all). A line that does not read (a torn write) is
// skipped.
func (a *Audit) List(f Filter, limit int) ([]approval.AuditEntry, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []approval.AuditEntry
	for _, p := range []string{a.path + ".1", a.path} {
		fh, err := os.Open(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			var e approval.AuditEntry
			if json.Unmarshal(sc.Bytes(), &e) == nil && f.keeps(e) {
				out = append(out, e)
			}
		}
		err = sc.Err()
		fh.Close()
		if err != nil {
			return nil, err
		}
	}
	if limit > 0 && len(out) > limit {
		out = out[len(out)-limit:]
	}
	return out, nil
}

// Export writes the entries f keeps to w as JSON Lines.
func (a *Audit) Export(w io.Writer, f Filter) error {
	es, err := a.List(f, 0)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	for _, e := range es {
		if err := enc.Encode(e); err != nil {
			return err
		}
	}
	return nil
}

// Uses counts, per standing rule id, the calls it decided and when last.
type Uses map[string]Use

// Use is one rule's count and last time.
type Use struct {
	Count int       `json:"count"`
	Last  time.Time `json:"last"`
}

// Uses counts how often each standing rule decided, from the log.
func (a *Audit) Uses() (Uses, error) {
	es, err := a.List(Filter{By: approval.ByPolicy}, 0)
	if err != nil {
		return nil, err
	}
	u := Uses{}
	for _, e := range es {
		for _, r := range e.Standing {
			x := u[r.ID]
			x.Count++
			x.Last = e.Time
			u[r.ID] = x
		}
	}
	return u, nil
}

package proc

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Ledger records the process groups one run of the app started, in a file
// of its own (run-<pid>-<start>.json in its folder), while they may run.
// Close removes the file at a clean exit; a file left behind names a run that
// crashed, and FindLeftovers lists what of its groups still runs. Each group
// is recorded with its leader's start time, so a pid reused by an unrelated
// process is never taken for it. A nil *Ledger records nothing.
type Ledger struct {
	dir, path string
	mu        sync.Mutex
	f         ledgerFile
	closed    bool
}

type ledgerFile struct {
	Owner  ledgerOwner   `json:"owner"`
	Boot   string        `json:"boot"`
	Groups []ledgerGroup `json:"groups"`
}

type ledgerOwner struct {
	PID   int    `json:"pid"`
	Start uint64 `json:"start"`
}

type ledgerGroup struct {
	PGID      int       `json:"pgid"`
	SID       int       `json:"sid,omitempty"`
	Start     uint64    `json:"start"` // leader's start, in clock ticks after boot
	Command   string    `json:"command"`
	Cwd       string    `json:"cwd"`
	StartedAt time.Time `json:"startedAt"`
}

// Leftover is a process group a crashed run left running.
type Leftover struct {
	ID        string    `json:"id"`
	Command   string    `json:"command"`
	Cwd       string    `json:"cwd"`
	StartedAt time.Time `json:"startedAt"`
	PGID      int       `json:"pgid"`
	PIDs      []int     `json:"pids"` // its live processes
}

// OpenLedger starts the ledger of this run in dir (made if missing).
func OpenLedger(dir string) (*Ledger, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	pid := os.Getpid()
	start, _ := procStart(pid)
	l := &Ledger{dir: dir, f: ledgerFile{Owner: ledgerOwner{pid, start}, Boot: bootID()}}
	l.path = filepath.Join(dir, fmt.Sprintf("run-%d-%d.json", pid, start))
	l.mu.Lock()
	defer l.mu.Unlock()
	return l, l.save()
}

// save writes the file (temp file, rename); call with l.mu held.
func (l *Ledger) save() error {
	b, err := json.Marshal(l.f)
	if err != nil {
		return err
	}
	return writeAtomic(l.path, b)
}

func writeAtomic(path string, b []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func (l *Ledger) add(g group, command, cwd string) {
	if l == nil {
		return
	}
	start, ok := procStart(g.pgid)
	if !ok {
		return // already gone
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	l.f.Groups = append(l.f.Groups, ledgerGroup{PGID: g.pgid, SID: g.sid, Start: start, Command: command, Cwd: cwd, StartedAt: time.Now()})
	_ = l.save() // best effort: a ledger that cannot be written only loses crash recovery
}

func (l *Ledger) remove(g group) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	l.f.Groups = slices.DeleteFunc(l.f.Groups, func(e ledgerGroup) bool { return e.PGID == g.pgid })
	_ = l.save()
}

// Close removes the ledger's file: the run ends cleanly, its processes were
// closed. Safe to call more than once.
func (l *Ledger) Close() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	if err := os.Remove(l.path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// forget removes g from the ledger once its supervisor ended (the helper
// exits only when no process of the command is left). Groups run without
// the supervisor stay recorded until Close.
func (r *Registry) forget(g group) {
	if r.o.Ledger == nil || g.sup == nil {
		return
	}
	g.sup.waitDone()
	r.o.Ledger.remove(g)
}

// FindLeftovers lists the process groups that runs which did not exit
// cleanly recorded in dir and that still have a live process. The files of
// such runs with nothing left are removed; the files of runs still going
// (another window) are left alone.
func FindLeftovers(dir string) ([]Leftover, error) {
	names, err := filepath.Glob(filepath.Join(dir, "run-*.json"))
	if err != nil {
		return nil, err
	}
	var out []Leftover
	boot := bootID()
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		var f ledgerFile
		if json.Unmarshal(b, &f) != nil || f.Boot != boot {
			os.Remove(name) // unreadable, or from before a reboot: nothing of it runs
			continue
		}
		if st, ok := procStart(f.Owner.PID); ok && st == f.Owner.Start {
			continue // that run is still going
		}
		found := false
		for _, e := range f.Groups {
			pids := e.live()
			if len(pids) == 0 {
				continue
			}
			found = true
			out = append(out, Leftover{
				ID:      strings.TrimSuffix(filepath.Base(name), ".json") + ":" + strconv.Itoa(e.PGID),
				Command: e.Command, Cwd: e.Cwd, StartedAt: e.StartedAt, PGID: e.PGID, PIDs: pids,
			})
		}
		if !found {
			os.Remove(name)
		}
	}
	slices.SortFunc(out, func(a, b Leftover) int { return a.StartedAt.Compare(b.StartedAt) })
	return out, nil
}

// live lists the processes of the recorded group still running. A leader
// alive with another start time means the numbers were reused: none is
// ours. Without the leader, the group id stays reserved while the group
// has a member, so members started after the leader are its own.
func (e ledgerGroup) live() []int {
	if st, ok := procStart(e.PGID); ok && st != e.Start {
		return nil
	}
	var pids []int
	for _, pid := range members(group{pgid: e.PGID, sid: e.SID}) {
		if st, ok := procStart(pid); ok && st >= e.Start {
			pids = append(pids, pid)
		}
	}
	return pids
}

// StopLeftover kills the leftover id found by FindLeftovers in dir:
// SIGTERM, grace, then SIGKILL, and waits (bounded) until it is gone.
func StopLeftover(dir, id string, grace time.Duration) error {
	left, err := FindLeftovers(dir)
	if err != nil {
		return err
	}
	for _, lo := range left {
		if lo.ID != id {
			continue
		}
		file, _, _ := strings.Cut(id, ":")
		return stopRecorded(filepath.Join(dir, file+".json"), lo.PGID, grace)
	}
	return &Error{CodeUnknownProcess, fmt.Sprintf("no process group %q is left from an earlier run", id)}
}

func stopRecorded(path string, pgid int, grace time.Duration) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var f ledgerFile
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	i := slices.IndexFunc(f.Groups, func(e ledgerGroup) bool { return e.PGID == pgid })
	if i < 0 {
		return nil
	}
	killPIDs(f.Groups[i].live, grace)
	if len(f.Groups[i].live()) > 0 {
		return fmt.Errorf("process group %d did not end", pgid)
	}
	f.Groups = slices.Delete(f.Groups, i, i+1)
	if len(f.Groups) == 0 {
		return os.Remove(path)
	}
	b, _ = json.Marshal(f)
	return writeAtomic(path, b)
}

// bootID names this boot of the machine ("" where unknown).
func bootID() string {
	b, _ := os.ReadFile("/proc/sys/kernel/random/boot_id")
	return strings.TrimSpace(string(b))
}

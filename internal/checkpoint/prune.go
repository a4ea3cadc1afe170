package checkpoint

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Pruning runs off the turn's path: Recorder.Append asks for it
// (PruneSoon) and returns at once; one prune runs at a time, and what is
// asked meanwhile runs once more after it. A prune reads every change log
// and walks every blob, which on a full store takes seconds, so it holds
// the Store's lock only to remove one blob at a time: Put, Get, Release and
// Append go on meanwhile. A blob put or released while a prune runs is kept
// by that prune, whatever the logs it read said, so a change recorded
// meanwhile never loses its content.

// pruner is the Store's pruning state. Its fields but one are guarded by
// Store.mu.
type pruner struct {
	one sync.Mutex // held by the running Prune

	running bool            // a background prune runs
	again   bool            // and was asked for again meanwhile
	keep    map[string]bool // the sessions the next background prune keeps
	recent  map[string]bool // blobs put or released since the running Prune began (nil: none runs)
	err     error           // the last background prune's failure, not yet reported
	wg      sync.WaitGroup  // the background prune
	hook    func()          // tests: called as a prune starts removing blobs
}

// touch marks a blob put or released while a prune runs. Store.mu is held.
func (p *pruner) touch(hash string) {
	if p.recent != nil {
		p.recent[hash] = true
	}
}

// PruneSoon starts a prune in the background when the blobs are (or may
// be: not sized yet) over the bound, never pruning session keep, and
// returns at once. It returns the failure of an earlier background prune,
// once.
func (s *Store) PruneSoon(keep string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := &s.pruner
	err := p.err
	p.err = nil
	if s.size >= 0 && s.size <= s.limit {
		return err
	}
	if p.keep == nil {
		p.keep = map[string]bool{}
	}
	p.keep[keep] = true
	if p.running {
		p.again = true
		return err
	}
	p.running = true
	p.wg.Add(1)
	go s.pruneLoop()
	return err
}

func (s *Store) pruneLoop() {
	defer s.pruner.wg.Done()
	for {
		s.mu.Lock()
		keep := slices.Collect(maps.Keys(s.pruner.keep))
		s.pruner.keep, s.pruner.again = nil, false
		s.mu.Unlock()
		err := s.Prune(keep...)
		s.mu.Lock()
		if err != nil {
			s.pruner.err = fmt.Errorf("undo store: pruning: %w", err)
		}
		if !s.pruner.again {
			s.pruner.running = false
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
	}
}

// WaitPruned waits for a background prune to end.
func (s *Store) WaitPruned() { s.pruner.wg.Wait() }

// Prune, when the blobs are over the bound, removes whole sessions, oldest
// first, never those in keep, until they fit, and every blob no remaining
// log names. Under the bound it does nothing, cheaply.
func (s *Store) Prune(keep ...string) error {
	s.pruner.one.Lock()
	defer s.pruner.one.Unlock()
	if s.Size() <= s.limit {
		return nil
	}
	s.mu.Lock()
	s.pruner.recent = map[string]bool{}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.pruner.recent = nil
		s.mu.Unlock()
	}()
	logs, err := s.sessionsByAge()
	if err != nil {
		return err
	}
	for {
		if err := s.collect(); err != nil {
			return err
		}
		if s.Size() <= s.limit {
			return nil
		}
		i := slices.IndexFunc(logs, func(id string) bool { return !slices.Contains(keep, id) })
		if i < 0 {
			return nil
		}
		if err := os.Remove(s.logPath(logs[i])); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		_ = os.Remove(s.rootPath(logs[i]))
		logs = append(logs[:i], logs[i+1:]...)
	}
}

// sessionsByAge lists the session ids with a log, oldest (by its first
// change) first.
func (s *Store) sessionsByAge() ([]string, error) {
	ents, err := os.ReadDir(filepath.Join(s.dir, "sessions"))
	if err != nil {
		return nil, err
	}
	type aged struct {
		id string
		at int64
	}
	var list []aged
	for _, e := range ents {
		id, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok {
			continue
		}
		list = append(list, aged{id, s.started(id, e)})
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].at < list[j].at })
	out := make([]string, len(list))
	for i, a := range list {
		out[i] = a.id
	}
	return out, nil
}

// started is when session's log began: its first change, else the file's
// time.
func (s *Store) started(id string, e fs.DirEntry) int64 {
	if f, err := os.Open(s.logPath(id)); err == nil {
		defer f.Close()
		var c Change
		if json.NewDecoder(f).Decode(&c) == nil && !c.At.IsZero() {
			return c.At.UnixNano()
		}
	}
	if fi, err := e.Info(); err == nil {
		return fi.ModTime().UnixNano()
	}
	return 0
}

// collect removes the blobs no session log names, none pinned or touched
// since the prune began. It reads the logs and walks the blobs without the
// lock, taking it for each removal.
func (s *Store) collect() error {
	ids, err := s.sessionsByAge()
	if err != nil {
		return err
	}
	live := map[string]bool{}
	for _, id := range ids {
		changes, err := readLog(s.logPath(id))
		if err != nil {
			return err
		}
		for _, c := range changes {
			live[c.Before.Hash], live[c.After.Hash] = true, true
		}
	}
	if s.pruner.hook != nil {
		s.pruner.hook()
	}
	return filepath.WalkDir(filepath.Join(s.dir, "blobs"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".") || live[d.Name()] {
			return nil
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.pinned[d.Name()] == 0 && !s.pruner.recent[d.Name()] {
			if fi, err := d.Info(); err == nil && os.Remove(p) == nil && s.size >= 0 {
				s.size -= fi.Size()
			}
		}
		return nil
	})
}

package proc

import (
	"strconv"
	"strings"
	"time"
)

// Saved is a process as a session stores it: its info and the tail of its
// output, Output being the bytes at absolute offsets [Offset, Offset+len).
type Saved struct {
	Info   Info   `json:"info"`
	Offset int64  `json:"offset"`
	Output []byte `json:"output"`
}

// Snapshot returns every process of the registry with at most tail bytes of
// its latest output, for the session to store.
func (r *Registry) Snapshot(tail int) []Saved {
	r.mu.Lock()
	ps := make([]*process, 0, len(r.order))
	for _, id := range r.order {
		ps = append(ps, r.procs[id])
	}
	r.mu.Unlock()
	out := make([]Saved, 0, len(ps))
	for _, p := range ps {
		_, end := p.ring.Bounds()
		data, off, _, _ := p.ring.ReadAt(end-int64(tail), tail)
		out = append(out, Saved{Info: p.info(), Offset: off, Output: data})
	}
	return out
}

// Restore adds processes of an earlier run as ended entries showing their
// saved output. One still running when saved is shown as exited with no exit
// code. Entries whose id is already taken are skipped; ids of new processes
// continue after the restored ones. It returns the infos added.
func (r *Registry) Restore(saved []Saved) []Info {
	r.mu.Lock()
	defer r.mu.Unlock()
	var added []Info
	for _, s := range saved {
		in := s.Info
		if in.ProcessID == "" || r.procs[in.ProcessID] != nil {
			continue
		}
		in.Restored, in.Ports = true, nil
		if in.Status == StatusRunning || in.Status == "" {
			in.Status, in.ExitCode = StatusExited, nil
		}
		if in.EndedAt == nil {
			t := time.Now()
			in.EndedAt = &t
		}
		ring := NewRing(max(r.o.RingSize, 1))
		ring.restore(s.Offset, s.Output)
		done, rdone := make(chan struct{}), make(chan struct{})
		close(done)
		close(rdone)
		p := &process{id: in.ProcessID, ring: ring, done: done, rdone: rdone, inf: in}
		r.procs[p.id] = p
		r.order = append(r.order, p.id)
		if n, err := strconv.Atoi(strings.TrimPrefix(p.id, "p")); err == nil && n > r.nextID {
			r.nextID = n
		}
		added = append(added, p.info())
	}
	return added
}

// Restart starts a new process with the command and folder of process id (a
// restored one included). resolve re-checks the folder against the workspace
// boundary, as for any start; its error is returned as is.
func (r *Registry) Restart(id string, resolve func(dir string) (string, error)) (Info, error) {
	in, err := r.Info(id)
	if err != nil {
		return Info{}, err
	}
	dir, err := resolve(in.Cwd)
	if err != nil {
		return Info{}, err
	}
	return r.Start(in.Command, dir)
}

package hooks

import (
	"sync"

	"gatehouse/internal/trust"
)

// WorkspaceSource is where a workspace's own hooks come from, in every
// hook's Source.
const WorkspaceSource = trust.HooksFile

// Workspace is a workspace's own hooks (.gatehouse/hooks.json): they run
// only once the user trusted them (trust.KindHooks, hashed over the file
// and every script its commands name inside the workspace) and only as
// trusted. Hooks reads the file and the scripts again on every call, so
// trusting counts at once and any change takes the trust back until the
// user says yes to the new bytes. Its hooks are Confined.
type Workspace struct {
	Root  string
	Trust *trust.Store

	mu    sync.Mutex
	hash  string
	hooks []Hook
	err   error
}

// Hooks are the workspace's hooks in force now (nil: none, untrusted,
// changed since trusted, or a trusted file that does not parse: Err says
// why).
func (w *Workspace) Hooks() []Hook {
	if w == nil || w.Trust == nil || w.Root == "" {
		return nil
	}
	c, err := trust.Read(w.Root, trust.KindHooks)
	if err != nil || c.Empty() || len(c.Refused) > 0 {
		return nil
	}
	if ok, err := w.Trust.Trusted(w.Root, trust.KindHooks, c); err != nil || !ok {
		return nil
	}
	w.mu.Lock()
	if c.Hash == w.hash {
		hs := w.hooks
		w.mu.Unlock()
		return hs
	}
	w.mu.Unlock()
	hs, err := Parse(c.Data[trust.HooksFile], WorkspaceSource)
	for i := range hs {
		hs[i].Confined = true
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.hash, w.hooks, w.err = c.Hash, hs, err
	return hs
}

// Err is why the trusted file's hooks do not run (it does not parse).
func (w *Workspace) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

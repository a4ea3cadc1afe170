package hooks

import (
	"errors"
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

// WaitingHooks is a workspace's hooks as the trust prompt shows them: every
// file the trust covers (the hooks file with every command, each script a
// command names), what cannot be trusted with why, and the hash trusting
// them records (TrustWorkspace).
type WaitingHooks struct {
	Hash  string            `json:"hash"`
	Files []WaitingHookFile `json:"files"`
}

// WaitingHookFile is one file of WaitingHooks: the hooks file lists each hook as
// "Event [matcher]: command"; Error says why a file cannot be trusted (or
// why the hooks file does not read: then nothing of it would run).
type WaitingHookFile struct {
	Path     string   `json:"path"`
	Commands []string `json:"commands,omitempty"`
	Error    string   `json:"error,omitempty"`
}

// Waiting returns the workspace's hooks waiting for the user's trust
// (never trusted, or changed since), nil when nothing asks.
func Waiting(root string, store *trust.Store) (*WaitingHooks, error) {
	c, err := store.Waiting(root, trust.KindHooks)
	if err != nil || c == nil {
		return nil, err
	}
	p := &WaitingHooks{Hash: c.Hash}
	for _, f := range c.Files {
		pf := WaitingHookFile{Path: f}
		if f == trust.HooksFile {
			hs, err := Parse(c.Data[f], WorkspaceSource)
			if err != nil {
				pf.Error = err.Error()
			}
			for _, h := range hs {
				line := string(h.Event)
				if h.Matcher != "" {
					line += " [" + h.Matcher + "]"
				}
				pf.Commands = append(pf.Commands, line+": "+h.Command)
			}
		}
		p.Files = append(p.Files, pf)
	}
	for _, r := range c.Refused {
		p.Files = append(p.Files, WaitingHookFile{Path: r.Path, Error: r.Reason})
	}
	return p, nil
}

// TrustWorkspace trusts the workspace's hooks as the prompt showed them
// (hash): a session running counts them from its next hook run.
func TrustWorkspace(root string, store *trust.Store, hash string) error {
	err := store.TrustShown(root, trust.KindHooks, hash)
	if errors.Is(err, trust.ErrChanged) {
		return errors.New("the workspace's hooks changed since they were shown; look at them again")
	}
	return err
}

package hooks

import (
	"errors"
	"path"
	"strings"
	"sync"

	"gatehouse/internal/trust"
)

// WorkspaceSource is where a workspace's own hooks come from, in every
// hook's Source.
const WorkspaceSource = trust.HooksFile

// Workspace is a workspace's own hooks (.gatehouse/hooks.json, and those
// of its agent definitions): they run only once the user trusted them
// (trust.KindHooks, hashed over the file, the definitions with hooks and
// every script their commands name inside the workspace) and only as
// trusted. Hooks and Agent read the files and the scripts again on every
// call, so trusting counts at once and any change takes the trust back
// until the user says yes to the new bytes. Its hooks are Confined.
type Workspace struct {
	Root  string
	Trust *trust.Store

	mu    sync.Mutex
	hash  string
	hooks []Hook
	err   error
}

// trusted is the workspace's hooks content when it is trusted as it is
// now, nil otherwise.
func (w *Workspace) trusted() *trust.Content {
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
	return &c
}

// Hooks are the workspace's hooks in force now (nil: none, untrusted,
// changed since trusted, or a trusted file that does not parse: Err says
// why).
func (w *Workspace) Hooks() []Hook {
	c := w.trusted()
	if c == nil {
		return nil
	}
	w.mu.Lock()
	if c.Hash == w.hash {
		hs := w.hooks
		w.mu.Unlock()
		return hs
	}
	w.mu.Unlock()
	var hs []Hook
	var err error
	if b, ok := c.Data[trust.HooksFile]; ok {
		hs, err = Parse(b, WorkspaceSource)
	}
	for i := range hs {
		hs[i].Confined, hs[i].Scope = true, ScopeWorkspace
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.hash, w.hooks, w.err = c.Hash, hs, err
	return hs
}

// Agent are the hooks in force now of the workspace's agent definition
// file (workspace-relative, slashes): those of its bytes the user trusted
// for hooks, nil while they are not trusted as they are now (or it has
// none). They run Confined, for that agent's children only.
func (w *Workspace) Agent(file string) []Hook {
	c := w.trusted()
	if c == nil {
		return nil
	}
	b, ok := c.Data[file]
	if !ok || !isAgentFile(file) {
		return nil
	}
	_, hs, err := ReadAgent(b, file)
	if err != nil {
		return nil
	}
	for i := range hs {
		hs[i].Confined = true
	}
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

// WaitingHookFile is one file of WaitingHooks: the hooks file and each
// agent definition with hooks list each hook as "Event [matcher]:
// command" (a definition's with Agent, its name); Error says why a file
// cannot be trusted (or why its hooks do not read: then nothing of it
// would run).
type WaitingHookFile struct {
	Path     string   `json:"path"`
	Agent    string   `json:"agent,omitempty"`
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
		var hs []Hook
		var err error
		switch {
		case f == trust.HooksFile:
			hs, err = Parse(c.Data[f], WorkspaceSource)
		case isAgentFile(f):
			pf.Agent, hs, err = ReadAgent(c.Data[f], f)
		}
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

// isAgentFile: the workspace-relative file is an agent definition.
func isAgentFile(f string) bool {
	return path.Dir(f) == trust.AgentsDir && strings.HasSuffix(f, ".md")
}

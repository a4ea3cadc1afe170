package gui

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"gatehouse/internal/atomicfile"
	"gatehouse/internal/runtime"
	"gatehouse/internal/sessionhost"
)

// The open tabs outlive the window: their folders, sessions, order and the
// shown one are written to TabsFile in the data folder whenever they change
// (a tab opened, closed or switched, a session started or resumed in one)
// and once more at quit, and the next start resumes them (restoreTabs).

// TabsFile is the name of the open tabs' file in the data folder.
const TabsFile = "tabs.json"

// savedTab is one open tab: its folder and its session ("" before the
// session's first message, or when it has none).
type savedTab struct {
	Workspace string `json:"workspace"`
	Session   string `json:"session,omitempty"`
}

// savedTabs are the window's tabs in order and the index of the shown one.
type savedTabs struct {
	Tabs   []savedTab `json:"tabs"`
	Active int        `json:"active"`
}

func (s savedTabs) equal(o savedTabs) bool {
	return s.Active == o.Active && slices.Equal(s.Tabs, o.Tabs)
}

// tabsSaver writes the latest tabs to its file off the caller's path (the
// callers hold the App's lock): one writer at a time, a newer state
// replacing one not written yet, nothing written when nothing changed.
type tabsSaver struct {
	path string // "": not kept (no data folder)

	mu      sync.Mutex
	idle    *sync.Cond
	pending *savedTabs
	written savedTabs
	busy    bool
	held    bool // restoring: the states meanwhile are partial
	stopped bool
	onError func(error)
}

func newTabsSaver(dataDir string, onError func(error)) *tabsSaver {
	s := &tabsSaver{onError: onError}
	if dataDir != "" {
		s.path = filepath.Join(dataDir, TabsFile)
	}
	s.idle = sync.NewCond(&s.mu)
	return s
}

// load reads the saved tabs; none (no file) is an empty list, and so is a
// file that does not parse (the error says so; nothing else is lost).
func (s *tabsSaver) load() (savedTabs, error) {
	if s.path == "" {
		return savedTabs{}, nil
	}
	b, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return savedTabs{}, nil
	}
	if err != nil {
		return savedTabs{}, err
	}
	var v savedTabs
	if err := json.Unmarshal(b, &v); err != nil {
		return savedTabs{}, errors.New(TabsFile + ": " + err.Error())
	}
	s.mu.Lock()
	s.written = v
	s.mu.Unlock()
	return v, nil
}

// set records v, to be written soon unless held or stopped.
func (s *tabsSaver) set(v savedTabs) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.path == "" || s.stopped {
		return
	}
	s.pending = &v
	if !s.busy && !s.held {
		s.busy = true
		go s.run()
	}
}

// hold keeps states from being written until release (a restore opens its
// tabs one by one).
func (s *tabsSaver) hold() {
	s.mu.Lock()
	s.held = true
	s.mu.Unlock()
}

// release ends hold and writes v, the state the restore ended in.
func (s *tabsSaver) release(v savedTabs) {
	s.mu.Lock()
	s.held = false
	s.mu.Unlock()
	s.set(v)
}

func (s *tabsSaver) run() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.pending != nil && !s.held {
		v := *s.pending
		s.pending = nil
		if v.equal(s.written) {
			continue
		}
		s.mu.Unlock()
		err := s.write(v)
		s.mu.Lock()
		if err == nil {
			s.written = v
		} else if s.onError != nil {
			s.onError(err)
		}
	}
	s.busy = false
	s.idle.Broadcast()
}

func (s *tabsSaver) write(v savedTabs) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(s.path, append(b, '\n'), 0o600)
}

// final writes v, the tabs open at quit, after any write under way, and
// writes nothing after it: the sessions closing next change nothing.
func (s *tabsSaver) final(v savedTabs) {
	s.mu.Lock()
	if s.path == "" || s.stopped {
		s.mu.Unlock()
		return
	}
	s.stopped, s.held, s.pending = true, false, nil
	for s.busy {
		s.idle.Wait()
	}
	same := v.equal(s.written)
	s.mu.Unlock()
	if same {
		return
	}
	if err := s.write(v); err != nil && s.onError != nil {
		s.onError(err)
	}
}

// tabsStateLocked is the window's tabs as they would be saved: every tab
// with a folder, in order, the shown one marked. a.mu is held.
func (a *App) tabsStateLocked() savedTabs {
	var out savedTabs
	for _, t := range a.tabs {
		dir, sess := t.dir, t.sess
		if t == a.cur {
			dir, sess = a.workspace, a.sess
		}
		if dir == "" {
			continue
		}
		st := savedTab{Workspace: dir}
		if sess != nil {
			st.Session = sess.ID()
		}
		if t == a.cur {
			out.Active = len(out.Tabs)
		}
		out.Tabs = append(out.Tabs, st)
	}
	return out
}

// saveTabsLocked records the tabs as they are now, to be written soon.
// a.mu is held.
func (a *App) saveTabsLocked() {
	if a.savedTabs != nil {
		a.savedTabs.set(a.tabsStateLocked())
	}
}

// restoreTabs opens the tabs open at the last quit, in their order, each
// session resumed (one never saved opens empty, a folder gone is left out)
// and shows the tab shown then. workspace ("" none) is the folder asked for
// on the command line: a tab on it is shown, a new one when none is open.
// With neither, the last folder opened comes back.
func (a *App) restoreTabs(workspace string) error {
	saved, err := a.savedTabs.load()
	if err != nil {
		a.log.Warn("could not read the tabs open at the last quit", "err", err)
	}
	a.savedTabs.hold()
	defer func() {
		a.mu.Lock()
		st := a.tabsStateLocked()
		a.mu.Unlock()
		a.savedTabs.release(st)
	}()
	var active *tab
	for i, st := range saved.Tabs {
		if fi, err := os.Stat(st.Workspace); err != nil || !fi.IsDir() {
			a.log.Info("a tab's folder is gone: not reopened", "folder", st.Workspace)
			continue
		}
		if err := a.openTabOn(st.Workspace, st.Session); err != nil {
			a.log.Warn("could not reopen a tab", "folder", st.Workspace, "session", st.Session, "err", err)
			continue
		}
		if i == saved.Active || active == nil {
			a.mu.Lock()
			active = a.cur
			a.mu.Unlock()
		}
	}
	if active != nil {
		a.showTab(active)
	}
	if workspace == "" && active == nil {
		workspace = a.lastWorkspace()
	}
	if workspace == "" {
		return nil
	}
	a.mu.Lock()
	empty := a.ws == nil
	a.mu.Unlock()
	if empty {
		return a.setWorkspace(workspace)
	}
	ws, err := runtime.OpenWorkspace(workspace)
	if err != nil {
		return err
	}
	if a.workspaceRoot() == ws.Root() {
		return nil
	}
	return a.showFolder(ws.Root())
}

// openResumed opens saved session id in the shown folder, or a new session
// when id is "" or cannot be resumed (its log never written, or unreadable:
// logged). a.openMu is held.
func (a *App) openResumed(id string) (*sessionhost.Session, error) {
	if id != "" {
		s, err := a.open(id, true)
		if err == nil {
			return s, nil
		}
		a.log.Info("a tab's session could not be resumed: a new one opens", "session", id, "err", err)
	}
	return a.open("", false)
}

// resumeShown opens saved session id (see openResumed) in the shown tab,
// which has none yet.
func (a *App) resumeShown(id string) error {
	a.openMu.Lock()
	defer a.openMu.Unlock()
	s, err := a.openResumed(id)
	if err != nil {
		return err
	}
	a.mu.Lock()
	a.setSessionLocked(s.Session)
	a.mu.Unlock()
	return nil
}

// lastWorkspace is the folder opened last, when it still is one ("" none).
func (a *App) lastWorkspace() string {
	saved, err := a.store.Load()
	if err != nil || saved.LastWorkspace == "" {
		return ""
	}
	if fi, err := os.Stat(saved.LastWorkspace); err != nil || !fi.IsDir() {
		return ""
	}
	return saved.LastWorkspace
}

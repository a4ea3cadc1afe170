package gui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"gatehouse/internal/browse"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime"
	"gatehouse/internal/session"
	"gatehouse/internal/workspace"
)

// Several sessions open at once, one tab each. The shown tab's session,
// folder, boundary and watch are a.sess, a.workspace, a.ws and a.files, as
// with one session, so every binding acts on the shown session; the other
// tabs keep theirs and go on running: their turns, processes and waiting
// approvals are untouched by a switch. Tabs on the same folder share one
// watch, so a dialog of one is marked stale when another session changes
// its files (approval.stale), and each says which tabs share its folder.

// tab is one open session and its folder. While it is shown its fields are
// stale: a.sess, a.workspace, a.ws and a.files hold the live values.
type tab struct {
	sess  *runtime.Session
	dir   string
	ws    *workspace.Workspace
	files *browse.Workspace
}

// TabInfo is one tab of the window, for the tab bar.
type TabInfo struct {
	// ID is the tab's session ("" for the shown tab before its first message).
	ID string `json:"id"`
	// Name is the folder's name, numbered when tabs share a folder.
	Name      string `json:"name"`
	Workspace string `json:"workspace"`
	// Title is the session's first message, shortened ("" before one).
	Title   string `json:"title"`
	Current bool   `json:"current"`
	Running bool   `json:"running"`
	// Waiting counts the approvals (its subagents' too) and ask_user
	// questions waiting for an answer.
	Waiting int `json:"waiting"`
	// Gone says, in words, that the folder no longer exists (a worktree
	// deleted behind the window's back); the session takes no message.
	Gone string `json:"gone,omitempty"`
	// SharedWith names the other tabs open on the same folder.
	SharedWith []string `json:"sharedWith,omitempty"`
}

// goneReason says why dir cannot be worked in ("" while it exists).
func goneReason(dir string) string {
	if dir == "" {
		return ""
	}
	if _, err := os.Stat(dir); err != nil && errors.Is(err, os.ErrNotExist) {
		return "The folder " + dir + " is gone: nothing is written anywhere else. Close this session, or end it in Changes."
	}
	return ""
}

// saveShownLocked copies the shown tab's live values into it. a.mu is held.
func (a *App) saveShownLocked() {
	a.cur.sess, a.cur.dir, a.cur.ws, a.cur.files = a.sess, a.workspace, a.ws, a.files.Load()
}

// showLocked makes t the shown tab. a.mu is held.
func (a *App) showLocked(t *tab) {
	a.saveShownLocked()
	a.cur = t
	a.workspace, a.ws = t.dir, t.ws
	a.files.Store(t.files)
	a.setSessionLocked(t.sess)
}

// openTabs copies the tabs, in order, and says which is shown.
func (a *App) openTabs() (tabs []tab, shown int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.saveShownLocked()
	for i, t := range a.tabs {
		tabs = append(tabs, *t)
		if t == a.cur {
			shown = i
		}
	}
	return tabs, shown
}

// Tabs lists the window's tabs in the order they were opened.
func (a *App) Tabs() []TabInfo {
	tabs, shown := a.openTabs()
	names := tabNames(tabs)
	out := make([]TabInfo, 0, len(tabs))
	for i, t := range tabs {
		info := TabInfo{Name: names[i], Workspace: t.dir, Current: i == shown, Gone: goneReason(t.dir)}
		if t.sess != nil {
			info.ID = t.sess.ID()
			info.Running = t.sess.TurnID() != ""
			info.Waiting = waitingOf(t.sess)
			info.Title = a.title(t.sess)
		}
		for j, o := range tabs {
			if j != i && o.dir == t.dir && t.dir != "" {
				info.SharedWith = append(info.SharedWith, names[j])
			}
		}
		out = append(out, info)
	}
	return out
}

// tabNames names each tab by its folder, numbered from the second tab on
// the same folder: "app", "app 2".
func tabNames(tabs []tab) []string {
	seen := map[string]int{}
	out := make([]string, len(tabs))
	for i, t := range tabs {
		name := filepath.Base(t.dir)
		if t.dir == "" {
			name = "No folder"
		}
		if seen[t.dir]++; seen[t.dir] > 1 {
			name = fmt.Sprintf("%s %d", name, seen[t.dir])
		}
		out[i] = name
	}
	return out
}

// title is session s's first message, shortened; read from its transcript
// once there is one (the tab bar asks every few seconds).
func (a *App) title(s *runtime.Session) string {
	if t, ok := a.titles.Load(s.ID()); ok {
		return t.(string)
	}
	t := firstPrompt(s.Snapshot())
	if t != "" {
		a.titles.Store(s.ID(), t)
	}
	return t
}

func firstPrompt(s protocol.Snapshot) string {
	for _, it := range s.Transcript {
		if it.Kind == protocol.ItemUser {
			return session.Title(it.Text)
		}
	}
	return ""
}

// tabName is the name of the tab of session id ("" when none is open).
func (a *App) tabName(id string) string {
	tabs, _ := a.openTabs()
	names := tabNames(tabs)
	for i, t := range tabs {
		if t.sess != nil && t.sess.ID() == id {
			return names[i]
		}
	}
	return ""
}

// NewTab opens a new session in the shown folder, in a tab beside the
// others, and shows it. The page draws the returned snapshot.
func (a *App) NewTab() (protocol.Snapshot, error) {
	a.mu.Lock()
	dir := a.workspace
	a.mu.Unlock()
	if dir == "" {
		return a.Snapshot(), errors.New("choose a workspace folder first")
	}
	if err := a.openTab(dir); err != nil {
		return a.Snapshot(), err
	}
	return a.Snapshot(), nil
}

// SwitchTab shows the tab of session id; the tab shown before goes on in
// the background. The page draws the returned snapshot.
func (a *App) SwitchTab(id string) (protocol.Snapshot, error) {
	a.mu.Lock()
	t := a.tabLocked(id)
	a.mu.Unlock()
	if t == nil || !a.showTab(t) {
		return a.Snapshot(), fmt.Errorf("no open session %q", id)
	}
	return a.Snapshot(), nil
}

// showTab shows tab t; false when it is no longer open.
func (a *App) showTab(t *tab) bool {
	a.switchMu.Lock()
	defer a.switchMu.Unlock()
	a.openMu.Lock()
	a.mu.Lock()
	open := slices.Contains(a.tabs, t)
	if open && t != a.cur {
		a.showLocked(t)
	}
	a.mu.Unlock()
	a.openMu.Unlock()
	if open {
		a.shown()
	}
	return open
}

// CloseTab closes the tab of session id: its turn is cancelled and its
// processes are stopped. Closing the shown tab shows the one beside it;
// the last tab cannot be closed (start a new session instead).
func (a *App) CloseTab(id string) error {
	a.switchMu.Lock()
	defer a.switchMu.Unlock()
	a.openMu.Lock()
	a.mu.Lock()
	t := a.tabLocked(id)
	if t == nil || len(a.tabs) == 1 {
		a.mu.Unlock()
		a.openMu.Unlock()
		if t == nil {
			return fmt.Errorf("no open session %q", id)
		}
		return errors.New("this is the only session open: start a new one instead")
	}
	if t == a.cur {
		next := 1 // the tab before it, or after the first
		if i := slices.Index(a.tabs, t); i > 0 {
			next = i - 1
		}
		a.showLocked(a.tabs[next])
	}
	a.tabs = slices.DeleteFunc(a.tabs, func(o *tab) bool { return o == t })
	a.setListenersLocked()
	a.mu.Unlock()
	a.closeSession(t.sess)
	a.releaseWatch(t.files)
	a.openMu.Unlock()
	a.shown()
	return nil
}

// tabLocked is the tab of session id, nil when none. a.mu is held.
func (a *App) tabLocked(id string) *tab {
	a.saveShownLocked()
	for _, t := range a.tabs {
		if t.sess != nil && t.sess.ID() == id {
			return t
		}
	}
	return nil
}

// showFolder shows a tab on dir: the first open on it, else a new one
// (the Changes view's worktree sessions).
func (a *App) showFolder(dir string) error {
	ws, err := runtime.OpenWorkspace(dir)
	if err != nil {
		return err
	}
	a.mu.Lock()
	a.saveShownLocked()
	found := ""
	for _, t := range a.tabs {
		if t.dir == ws.Root() && t.sess != nil {
			found = t.sess.ID()
			break
		}
	}
	a.mu.Unlock()
	if found == "" {
		return a.openTab(ws.Root())
	}
	_, err = a.SwitchTab(found)
	return err
}

// closeFolder closes every tab on dir that is not shown (a worktree about
// to be removed): their sessions end before the folder does.
func (a *App) closeFolder(dir string) {
	a.switchMu.Lock()
	defer a.switchMu.Unlock()
	a.mu.Lock()
	a.saveShownLocked()
	var gone []*tab
	a.tabs = slices.DeleteFunc(a.tabs, func(t *tab) bool {
		if t != a.cur && t.dir == dir {
			gone = append(gone, t)
			return true
		}
		return false
	})
	a.setListenersLocked()
	a.mu.Unlock()
	for _, t := range gone {
		a.closeSession(t.sess)
		a.releaseWatch(t.files)
	}
}

// openTab opens a new session on dir in a new tab and shows it. The tab
// shown before keeps its session (one is opened for it if it had none yet,
// so it can be shown again); a window with no folder yet opens dir in its
// only tab.
func (a *App) openTab(dir string) error { return a.openTabOn(dir, "") }

// openTabOn is openTab resuming saved session resume ("": a new session;
// see openResumed).
func (a *App) openTabOn(dir, resume string) error {
	ws, err := runtime.OpenWorkspace(dir)
	if err != nil {
		return err
	}
	a.mu.Lock()
	empty, shownDir := a.ws == nil, a.workspace
	a.mu.Unlock()
	if empty {
		if err := a.setWorkspace(dir); err != nil || resume == "" {
			return err
		}
		return a.resumeShown(resume)
	}
	if _, err := a.session(); err != nil && goneReason(shownDir) == "" {
		return err
	}
	a.switchMu.Lock()
	defer a.switchMu.Unlock()
	a.openMu.Lock()
	a.mu.Lock()
	t := &tab{dir: ws.Root(), ws: ws}
	a.tabs = append(a.tabs, t)
	old := a.cur
	a.showLocked(t)
	var dropped *browse.Workspace
	if old.sess == nil { // its folder is gone: nothing to come back to
		a.tabs = slices.DeleteFunc(a.tabs, func(o *tab) bool { return o == old })
		dropped = old.files
	}
	a.mu.Unlock()
	a.releaseWatch(dropped)
	a.watchWorkspace(ws)
	s, err := a.openResumed(resume)
	if err == nil {
		a.mu.Lock()
		a.setSessionLocked(s.Session)
		a.mu.Unlock()
	}
	a.openMu.Unlock()
	a.shown()
	return err
}

// shown tells the page's tree, the servers panel and the title that
// another tab is shown.
func (a *App) shown() {
	a.bus.Publish(fsChangedEvent(nil))
	a.mcpShow()
	a.updateTitle()
}

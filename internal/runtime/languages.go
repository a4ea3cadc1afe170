package runtime

import (
	"context"
	"path/filepath"
	"sync"
	"time"

	"gatehouse/internal/lsp"
	"gatehouse/internal/protocol"
	"gatehouse/internal/watch"
)

// feedLanguages hands the watcher's changes to the language servers
// (didChangeWatchedFiles; open documents follow the disk), so gopls does
// not go stale when a command or the user changes a file. A child's
// changes are its parent's, fed once.
func (s *Session) feedLanguages() {
	if s.langs == nil || s.files == nil || s.parent != nil {
		return
	}
	root := s.files.W.Root()
	s.unfeed = s.files.W.OnBatch(func(cs []watch.Change) {
		abs := make([]string, 0, len(cs))
		for _, c := range cs {
			if !c.IsDir {
				abs = append(abs, filepath.Join(root, filepath.FromSlash(c.Path)))
			}
		}
		if len(abs) > 0 {
			go s.langs.Changed(abs)
		}
	})
}

// DialogCheckTimeout bounds the language servers' check of a waiting
// request's proposal: past it the dialog says the server timed out.
const DialogCheckTimeout = 10 * time.Second

// diagnose checks a waiting request's proposed files in memory
// (approval.Config.Diagnose).
func (s *Session) diagnose(ctx context.Context, files []protocol.FilePreview) protocol.ApprovalDiagnosticsPayload {
	ctx, cancel := context.WithTimeout(ctx, DialogCheckTimeout)
	defer cancel()
	return s.langs.Proposal(ctx, files)
}

// tellProblems publishes diagnostics.updated (the Problems panel) when the
// language servers' diagnostics or states change, at most every
// problemsEvery, the last change always told.
func (s *Session) tellProblems() {
	if s.langs == nil || s.parent != nil {
		return
	}
	var mu sync.Mutex
	pending, stopped := false, false
	send := func() {
		mu.Lock()
		pending = false
		done := stopped
		mu.Unlock()
		if done {
			return
		}
		cur := s.langs.Current()
		p := protocol.DiagnosticsUpdatedPayload{Files: cur.Files, Servers: []protocol.LanguageServer{}}
		for _, st := range s.langs.Statuses() {
			p.Servers = append(p.Servers, protocol.LanguageServer{Name: st.Name, Command: st.Command, State: string(st.State),
				Error: st.Error, Restarts: st.Restarts, Confined: st.Confined})
		}
		s.pub.Publish(protocol.Event{SessionID: s.id, Type: protocol.DiagnosticsUpdated, Payload: p})
	}
	s.langs.Listen(func() {
		mu.Lock()
		defer mu.Unlock()
		if !pending {
			pending = true
			time.AfterFunc(problemsEvery, send)
		}
	})
	unfeed := s.unfeed
	s.unfeed = func() {
		s.langs.Listen(nil)
		mu.Lock()
		stopped = true
		mu.Unlock()
		if unfeed != nil {
			unfeed()
		}
	}
}

// problemsEvery spaces the Problems panel's updates.
const problemsEvery = 150 * time.Millisecond

// LanguageServers are the states of the session's language servers that
// started at least once, or failed to (none without language servers).
func (s *Session) LanguageServers() []lsp.Status {
	if s.langs == nil {
		return nil
	}
	return s.langs.Statuses()
}

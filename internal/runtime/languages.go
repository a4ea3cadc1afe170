package runtime

import (
	"context"
	"path/filepath"
	"time"

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

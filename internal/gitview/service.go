package gitview

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"time"

	"gatehouse/internal/settings"
	"gatehouse/internal/trust"
)

// Host is what the Changes view needs from the app that shows it.
type Host struct {
	// Workspace is the open workspace folder ("" when none).
	Workspace func() string
	// Keep is the open session's undo store for discards (nil or an error:
	// discarding is refused, since it could not be taken back).
	Keep func() (Keep, error)
	// Model drafts commit messages.
	Model Model
	// Denied says why the open session's policy hides the file at abs from
	// the model ("" when it does not; nil: nothing hidden): a draft leaves
	// such files out of the diff it sends (Repo.Visible).
	Denied func(abs string) string
	// Settings holds the commit trailer and the config folder the trust
	// store lives in.
	Settings *settings.Store
	// SwitchWorkspace shows a session on dir (the window's open one on it,
	// else a new one beside the others, which go on): a new worktree
	// session, or the main worktree again when one ends.
	SwitchWorkspace func(dir string) error
	// CloseFolder (nil: none) ends the sessions the window has open on dir
	// beside the shown one, before a worktree session's folder is removed.
	CloseFolder func(dir string)
}

// Service is the Changes view's backend, bound to the page: every method
// is the user's own action (nothing here passes the approval gate, which
// is for the model's calls) on the open workspace's repository. Methods
// may run concurrently; changes to the repository run one at a time.
type Service struct {
	h Host

	mu   sync.Mutex
	repo *Repo // for repoDir
	dir  string
}

// NewService returns the Changes view's backend over h.
func NewService(h Host) *Service { return &Service{h: h} }

// opTimeout bounds one git operation; draftTimeout a model's draft.
const (
	opTimeout    = 60 * time.Second
	draftTimeout = 3 * time.Minute
)

func (s *Service) trustStore() *trust.Store { return trust.NewStore(s.h.Settings.Dir()) }

// open returns the workspace's repository, found again when the workspace
// changed.
func (s *Service) open(ctx context.Context) (*Repo, error) {
	ws := s.h.Workspace()
	if ws == "" {
		return nil, errors.New("choose a workspace folder first")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.repo != nil && s.dir == ws {
		return s.repo, nil
	}
	r, err := Open(ctx, ws, nil)
	if err != nil {
		return nil, err
	}
	r.Trusted = TrustedBy(s.trustStore(), r.Main)
	s.repo, s.dir = r, ws
	return r, nil
}

func (s *Service) with(f func(context.Context, *Repo) error) error {
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	defer cancel()
	r, err := s.open(ctx)
	if err != nil {
		return err
	}
	return f(ctx, r)
}

// View is the Changes view: the changes, or why there are none to show.
type View struct {
	// NotRepo is set when the workspace is not in a git repository.
	NotRepo bool    `json:"notRepo,omitempty"`
	Changes Changes `json:"changes"`
	// Settings are the repository's git settings and whether they are trusted.
	Settings Settings `json:"settings"`
	// LastMessage is the last commit's message, for amending.
	LastMessage string `json:"lastMessage"`
	// Gone is set when the workspace folder no longer exists (a worktree
	// deleted behind the window's back): what happened, in words.
	Gone string `json:"gone,omitempty"`
}

// GitChanges reads the workspace's changes.
func (s *Service) GitChanges() (View, error) {
	if ws := s.h.Workspace(); ws != "" {
		if _, err := os.Stat(ws); err != nil {
			return View{Gone: "The folder " + ws + " is gone: nothing is written anywhere else. End this session (keep its branch or discard it), or choose another folder."}, nil
		}
	}
	var v View
	err := s.with(func(ctx context.Context, r *Repo) error {
		var err error
		if v.Settings, err = ReadSettings(s.trustStore(), r.Main); err != nil {
			return err
		}
		if v.Changes, err = r.Changes(ctx); err != nil {
			return err
		}
		v.LastMessage, err = r.LastMessage(ctx)
		return err
	})
	if errors.Is(err, ErrNotRepo) {
		return View{NotRepo: true}, nil
	}
	return v, err
}

// GitStageFile stages the whole of path (workspace-relative).
func (s *Service) GitStageFile(path string) error {
	return s.with(func(ctx context.Context, r *Repo) error { return r.StageFile(ctx, path) })
}

// GitUnstageFile takes path's changes out of the index.
func (s *Service) GitUnstageFile(path string) error {
	return s.with(func(ctx context.Context, r *Repo) error { return r.UnstageFile(ctx, path) })
}

// GitStageHunk stages one hunk of path's unstaged changes.
func (s *Service) GitStageHunk(path, id string) error {
	return s.with(func(ctx context.Context, r *Repo) error { return r.StageHunk(ctx, path, id) })
}

// GitUnstageHunk takes one hunk of path's staged changes out of the index.
func (s *Service) GitUnstageHunk(path, id string) error {
	return s.with(func(ctx context.Context, r *Repo) error { return r.UnstageHunk(ctx, path, id) })
}

// GitDiscardHunk discards one hunk of path's unstaged changes; the undo
// store keeps the file first. It returns the undo unit that takes it back.
func (s *Service) GitDiscardHunk(path, id string) (string, error) {
	var unit string
	err := s.withKeep(func(ctx context.Context, r *Repo, keep Keep) (err error) {
		unit, err = r.DiscardHunk(ctx, keep, path, id)
		return err
	})
	return unit, err
}

// GitDiscardFile discards path's unstaged changes (an untracked file is
// removed); the undo store keeps it first. It returns the undo unit.
func (s *Service) GitDiscardFile(path string) (string, error) {
	var unit string
	err := s.withKeep(func(ctx context.Context, r *Repo, keep Keep) (err error) {
		unit, err = r.DiscardFile(ctx, keep, path)
		return err
	})
	return unit, err
}

func (s *Service) withKeep(f func(context.Context, *Repo, Keep) error) error {
	if s.h.Keep == nil {
		return errors.New("discarding needs the undo store, which is off")
	}
	keep, err := s.h.Keep()
	if err != nil {
		return errors.New("discarding needs the undo store so it can be taken back: " + err.Error())
	}
	return s.with(func(ctx context.Context, r *Repo) error { return f(ctx, r, keep) })
}

// GitCommit commits what is staged, as the user, with their git; the
// trailer setting adds a trailer, nothing else does.
func (s *Service) GitCommit(message string, amend bool) (Commit, error) {
	saved, err := s.h.Settings.Load()
	if err != nil {
		return Commit{}, err
	}
	var c Commit
	err = s.with(func(ctx context.Context, r *Repo) (err error) {
		c, err = r.Commit(ctx, CommitOptions{Message: message, Amend: amend, Trailer: saved.CommitTrailer})
		return err
	})
	return c, err
}

// GitDraftMessage asks the model for a message for the staged changes;
// the page shows it for editing and commits nothing.
func (s *Service) GitDraftMessage() (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), draftTimeout)
	defer cancel()
	r, err := s.open(ctx)
	if err != nil {
		return "", err
	}
	return r.Draft(ctx, s.h.Model, s.h.Denied)
}

// GitTrustSettings trusts the repository's git settings as shown (hash):
// from then on the Changes view runs its hooks and config, and commits.
func (s *Service) GitTrustSettings(hash string) error {
	return s.with(func(ctx context.Context, r *Repo) error { return TrustSettings(s.trustStore(), r.Main, hash) })
}

// GitCommitTrailer is the trailer setting ("" for none).
func (s *Service) GitCommitTrailer() (string, error) {
	v, err := s.h.Settings.Load()
	return v.CommitTrailer, err
}

// SetGitCommitTrailer saves the trailer setting ("" for none).
func (s *Service) SetGitCommitTrailer(trailer string) error {
	trailer = strings.TrimSpace(trailer)
	return s.h.Settings.Update(func(v *settings.Settings) { v.CommitTrailer = trailer })
}

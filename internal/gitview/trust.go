package gitview

import (
	"errors"

	"gatehouse/internal/trust"
)

// Settings is what trusting a repository's git settings covers: its
// .git/config and hooks, read now (trust.KindGit).
type Settings struct {
	// Trusted says the user trusts exactly these files.
	Trusted bool `json:"trusted"`
	// Files are the files trust covers (".git/config", ".git/hooks/…").
	Files []string `json:"files"`
	// Hash names the content shown, for Trust.
	Hash string `json:"hash"`
	// Refused explains files that cannot be trusted (a link, a FIFO):
	// while there is one, git keeps running in safe mode.
	Refused []string `json:"refused,omitempty"`
	// Warnings say what to know before trusting: a config that includes
	// a file in the working tree, which the agent can change.
	Warnings []string `json:"warnings,omitempty"`
}

// ReadSettings reads the git settings of the repository whose top folder
// is top, and whether ts trusts them.
func ReadSettings(ts *trust.Store, top string) (Settings, error) {
	if top == "" {
		return Settings{Files: []string{}, Refused: []string{"this repository has no main worktree whose .git/config could be trusted"}}, nil
	}
	c, err := trust.Read(top, trust.KindGit)
	if err != nil {
		return Settings{}, err
	}
	s := Settings{Files: c.Files, Hash: c.Hash, Warnings: c.Warnings}
	for _, r := range c.Refused {
		s.Refused = append(s.Refused, r.Reason)
	}
	if s.Files == nil {
		s.Files = []string{}
	}
	if len(c.Refused) == 0 && !c.Empty() {
		s.Trusted, err = ts.Trusted(top, trust.KindGit, c)
	}
	return s, err
}

// TrustSettings trusts the git settings of top, if they are still the ones
// shown (hash).
func TrustSettings(ts *trust.Store, top, hash string) error {
	if top == "" {
		return errors.New("this repository has no main worktree whose .git/config could be trusted")
	}
	err := ts.TrustShown(top, trust.KindGit, hash)
	if errors.Is(err, trust.ErrChanged) {
		return errors.New("the git settings changed since they were shown: look again")
	}
	return err
}

// TrustedBy reports, on each call, whether ts trusts the current git
// settings of top (for Repo.Trusted): a change to them takes trust back.
func TrustedBy(ts *trust.Store, top string) func() bool { return ts.GitTrust(top) }

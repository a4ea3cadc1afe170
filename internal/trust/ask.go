package trust

import (
	"errors"
	"strings"
)

// ErrChanged reports content that changed after the prompt showed it:
// nothing was trusted.
var ErrChanged = errors.New("trust: the content changed since it was shown")

// Loadable returns the content of kind in folder when the user trusts it
// exactly as it is now: the very bytes whose hash was trusted, for the
// caller to load. nil when there is none, it is not trusted (never, or
// changed since), or the store cannot be read.
func (s *Store) Loadable(folder, kind string) *Content {
	c, err := Read(folder, kind)
	if err != nil || c.Empty() {
		return nil
	}
	if ok, err := s.Trusted(folder, kind, c); err != nil || !ok {
		return nil
	}
	return &c
}

// Waiting returns the content of kind in folder when there is something
// to ask: content never trusted or changed since (Hash set), or refused
// files (links, FIFOs) to show with why even when the rest is trusted
// (Hash and Files then empty). nil: nothing to ask.
func (s *Store) Waiting(folder, kind string) (*Content, error) {
	if folder == "" {
		return nil, nil
	}
	c, err := Read(folder, kind)
	if err != nil || c.Empty() && len(c.Refused) == 0 {
		return nil, err
	}
	if !c.Empty() {
		ok, err := s.Trusted(folder, kind, c)
		switch {
		case err != nil:
			return nil, err
		case ok && len(c.Refused) == 0:
			return nil, nil
		case ok:
			c.Hash, c.Files, c.Data = "", nil, nil // trusted already: only the refusals to show
		}
	}
	return &c, nil
}

// TrustShown records trust in the content of kind in folder as the prompt
// showed it (hash, from Waiting): the one place "trust exactly what was
// shown" is decided. Content that changed meanwhile (or is gone) is not
// trusted and ErrChanged returned; git settings holding a file that
// cannot be trusted (a link git would follow) are refused as a whole.
func (s *Store) TrustShown(folder, kind, hash string) error {
	c, err := Read(folder, kind)
	if err != nil {
		return err
	}
	if (kind == KindGit || kind == KindHooks) && len(c.Refused) > 0 {
		reasons := make([]string, len(c.Refused))
		for i, r := range c.Refused {
			reasons[i] = r.Reason
		}
		what := "these git settings"
		if kind == KindHooks {
			what = "these hooks"
		}
		return errors.New(what + " cannot be trusted: " + strings.Join(reasons, "; "))
	}
	if c.Empty() || c.Hash != hash {
		return ErrChanged
	}
	return s.Trust(folder, kind, c)
}

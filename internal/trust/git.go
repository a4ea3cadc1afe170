package trust

// TrustsGit reports whether the user trusts the git settings of the
// repository whose main worktree is top exactly as they are now: read
// afresh on each call, so a change to them (or to a file they include)
// takes trust back before the next git the app runs. Settings holding a
// file that cannot be trusted (a link, a FIFO) are never trusted.
func (s *Store) TrustsGit(top string) bool {
	if top == "" {
		return false
	}
	c, err := Read(top, KindGit)
	if err != nil || c.Empty() || len(c.Refused) > 0 {
		return false
	}
	ok, err := s.Trusted(top, KindGit, c)
	return err == nil && ok
}

// GitTrust is TrustsGit for top as a function, for gitcmd.Git.Trusted.
func (s *Store) GitTrust(top string) func() bool {
	return func() bool { return s.TrustsGit(top) }
}

package netproxy

import (
	"slices"
	"sync"
)

// Session is one session's network policy, shared by its commands (the
// proxy asks it per request) and web_fetch: the setting, read at each use
// (a saved change applies to the next request), and the domains the user
// allowed for this session from a refusal's card. A nil *Session is the
// network on.
type Session struct {
	setting func() (mode string, list []string)

	mu    sync.Mutex
	extra []string
}

// NewSession returns the policy of a session; setting gives the network
// mode and allow-list in effect.
func NewSession(setting func() (mode string, list []string)) *Session {
	return &Session{setting: setting}
}

// Mode is the network mode in effect: ModeOn, ModeOff or ModeAllowList.
func (s *Session) Mode() string {
	if s == nil {
		return ModeOn
	}
	m, _ := s.setting()
	if m == "" {
		return ModeOn
	}
	return m
}

// Allowed reports whether domain may be reached now: always with the
// network on, never with it off, and in allow-list mode when the user's
// list or this session's allowed domains match it.
func (s *Session) Allowed(domain string) bool {
	if s == nil {
		return true
	}
	mode, list := s.setting()
	switch mode {
	case ModeOff:
		return false
	case ModeAllowList:
		s.mu.Lock()
		defer s.mu.Unlock()
		return Match(list, domain) || slices.Contains(s.extra, Normalize(domain))
	}
	return true
}

// Allow lets this session reach domain (the exact name) from now on.
func (s *Session) Allow(domain string) {
	d := Normalize(domain)
	if s == nil || d == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !slices.Contains(s.extra, d) {
		s.extra = append(s.extra, d)
	}
}

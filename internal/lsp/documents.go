package lsp

import (
	"context"
	"errors"
	"time"
)

// errUnchanged: a server answered a change with no publish: with versions
// it would have said so; gopls publishes only when diagnostics change.
var errTimeout = errors.New("timed out")

// syncDoc makes the server hold text for the file at abs (didOpen, or
// didChange of the whole text when it differs) and returns the version it
// holds and whether anything was sent.
func (s *server) syncDoc(conn *Conn, abs, text string) (int, bool, error) {
	s.mu.Lock()
	if s.docs == nil {
		s.mu.Unlock()
		return 0, false, ErrClosed
	}
	d := s.docs[abs]
	if d != nil && d.text == text {
		v := d.version
		s.mu.Unlock()
		return v, false, nil
	}
	var method string
	var params any
	if d == nil {
		d = &document{uri: fileURI(abs), version: 1, text: text}
		s.docs[abs] = d
		method = "textDocument/didOpen"
		params = map[string]any{"textDocument": map[string]any{"uri": d.uri, "languageId": s.cfg.languageID(abs), "version": d.version, "text": text}}
	} else {
		d.version++
		d.text = text
		method = "textDocument/didChange"
		params = map[string]any{"textDocument": map[string]any{"uri": d.uri, "version": d.version},
			"contentChanges": []map[string]string{{"text": text}}}
	}
	v := d.version
	s.mu.Unlock()
	return v, true, conn.Notify(method, params)
}

// closeDoc closes the document at abs when it is open (a deleted file).
func (s *server) closeDoc(conn *Conn, abs string) {
	s.mu.Lock()
	d := s.docs[abs]
	delete(s.docs, abs)
	if d != nil {
		delete(s.diags, d.uri)
	}
	s.mu.Unlock()
	if d != nil {
		_ = conn.Notify("textDocument/didClose", map[string]any{"textDocument": map[string]string{"uri": d.uri}})
	}
}

// need is the publish a check waits for: of version or later, after since
// (0 when the document did not change: what the server said stands).
type need struct {
	version int
	since   uint64
}

// mark is where the server's publishing stood before a change.
func (s *server) mark() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seq
}

// settle waits until the server published diagnostics for each document
// of want (uri → version) at that version or later (for a server that
// sends no versions: after since), then until none of them got news for
// the quiet period (for publishes without a version: one with the version
// asked about is the answer). A document the server did not publish for by then
// keeps what it had when the server publishes only changes (gopls), after
// the unchanged wait; a document it never published for is waited for. It returns errTimeout when ctx ended first.
func (s *server) settle(ctx context.Context, want map[string]need) error {
	quiet, unchanged := s.m.opts.Quiet, s.m.opts.Unchanged
	start := time.Now()
	for {
		s.mu.Lock()
		if s.diags == nil {
			s.mu.Unlock()
			return ErrClosed
		}
		news := s.news
		all, known, versioned, last := true, true, true, time.Time{}
		for uri, n := range want {
			p := s.diags[uri]
			fresh := p != nil && p.seq > n.since && (p.version == nil || *p.version >= n.version)
			if !fresh {
				all = false
				known = known && p != nil
				continue
			}
			if p.at.After(last) {
				last = p.at
			}
			versioned = versioned && p.version != nil
		}
		s.mu.Unlock()
		var wait time.Duration
		switch {
		case all && (versioned || time.Since(last) >= quiet):
			return nil // a publish for the version asked about is the answer
		case all:
			wait = quiet - time.Since(last)
		case known && time.Since(start) >= unchanged && time.Since(s.lastNews()) >= quiet:
			return nil // the rest did not change
		default:
			wait = min(quiet, max(unchanged-time.Since(start), time.Millisecond))
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return errTimeout
		case <-news:
		case <-t.C:
		}
		t.Stop()
	}
}

// lastNews is when the server last published anything.
func (s *server) lastNews() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	var last time.Time
	for _, p := range s.diags {
		if p.at.After(last) {
			last = p.at
		}
	}
	return last
}

// current is what the server last published for the document at abs.
func (s *server) current(abs string) []lspDiagnostic {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.diags[fileURI(abs)]; p != nil {
		return append([]lspDiagnostic(nil), p.list...)
	}
	return nil
}

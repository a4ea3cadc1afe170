package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Place is a location as the model reads it: workspace-relative path (or
// absolute, Outside set), 1-based line and column, and the line's text.
type Place struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Text    string `json:"text,omitempty"`
	Outside bool   `json:"outside,omitempty"`
	// Hidden says why Text is left out: the user's policy denies reading
	// the file (the place itself is no content).
	Hidden string `json:"hidden,omitempty"`
}

// maxPlaces bounds what Locate returns.
const maxPlaces = 100

// Locate asks the server of the file at abs for the definition
// ("definition") or references ("references") of the symbol at 1-based
// line and col (in characters), with the file's content on disk.
func (m *Manager) Locate(ctx context.Context, what, abs string, line, col int) ([]Place, int, error) {
	method := map[string]string{"definition": "textDocument/definition", "references": "textDocument/references"}[what]
	s := m.serverFor(abs)
	if s == nil || method == "" {
		return nil, 0, fmt.Errorf("no language server checks %s", m.rel(abs))
	}
	text, ok := readText(abs)
	if !ok {
		return nil, 0, fmt.Errorf("%s is not a readable file", m.rel(abs))
	}
	lines := strings.Split(text, "\n")
	if line < 1 || line > len(lines) {
		return nil, 0, fmt.Errorf("line %d is outside %s (%d lines)", line, m.rel(abs), len(lines))
	}
	ctx, cancel := context.WithTimeout(ctx, m.opts.Timeout)
	defer cancel()
	s.check.Lock()
	conn, err := s.ensure(ctx)
	if err == nil {
		_, _, err = s.syncDoc(conn, abs, text)
	}
	s.check.Unlock()
	if err != nil {
		return nil, 0, err
	}
	params := map[string]any{
		"textDocument": map[string]string{"uri": fileURI(abs)},
		"position":     Position{Line: line - 1, Character: utf16Col(lines[line-1], col)},
		"context":      map[string]bool{"includeDeclaration": true},
	}
	var raw json.RawMessage
	if err := conn.Call(ctx, method, params, &raw); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, 0, fmt.Errorf("%s timed out after %s", s.cfg.Name, m.opts.Timeout)
		}
		return nil, 0, err
	}
	locs := parseLocations(raw)
	out := make([]Place, 0, min(len(locs), maxPlaces))
	for i, l := range locs {
		if i == maxPlaces {
			break
		}
		out = append(out, m.place(l))
	}
	return out, len(locs), nil
}

// parseLocations reads null, a Location, Location[] or LocationLink[].
func parseLocations(raw json.RawMessage) []Location {
	var many []struct {
		Location
		TargetURI            string `json:"targetUri"`
		TargetSelectionRange *Range `json:"targetSelectionRange"`
	}
	if json.Unmarshal(raw, &many) != nil {
		var one Location
		if json.Unmarshal(raw, &one) != nil || one.URI == "" {
			return nil
		}
		return []Location{one}
	}
	out := make([]Location, 0, len(many))
	for _, l := range many {
		if l.TargetURI != "" && l.TargetSelectionRange != nil {
			out = append(out, Location{URI: l.TargetURI, Range: *l.TargetSelectionRange})
		} else if l.URI != "" {
			out = append(out, l.Location)
		}
	}
	return out
}

// place turns a location into what the model reads.
func (m *Manager) place(l Location) Place {
	abs := uriPath(l.URI)
	p := Place{Path: m.rel(abs), Line: l.Range.Start.Line + 1, Col: l.Range.Start.Character + 1}
	p.Outside = p.Path == abs || abs == ""
	if text, ok := readText(abs); ok && !p.Outside {
		if ls := strings.Split(text, "\n"); l.Range.Start.Line < len(ls) {
			p.Text = strings.TrimSpace(ls[l.Range.Start.Line])
			p.Col = charCol(ls[l.Range.Start.Line], l.Range.Start.Character)
		}
	}
	if len(p.Text) > 200 {
		p.Text = p.Text[:200]
	}
	return p
}

// utf16Col is the UTF-16 offset of the 1-based character column col of s.
func utf16Col(s string, col int) int {
	n, i := 0, 0
	for _, r := range s {
		if i == col-1 {
			break
		}
		i++
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// charCol is the 1-based character column of UTF-16 offset u in s.
func charCol(s string, u int) int {
	n, c := 0, 1
	for len(s) > 0 && n < u {
		r, size := utf8.DecodeRuneInString(s)
		s = s[size:]
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		c++
	}
	return c
}

// Current is what the running servers last published for the files they
// have open.
func (m *Manager) Current() Result {
	res := Result{Files: map[string][]Diagnostic{}}
	for _, s := range m.servers {
		s.mu.Lock()
		for uri, p := range s.diags {
			abs := uriPath(uri)
			if abs != "" && s.docs[abs] != nil {
				res.Files[m.rel(abs)] = m.convert(abs, p.list)
			}
		}
		s.mu.Unlock()
	}
	return res
}

package lsp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// Result is the diagnostics of a set of files, by workspace-relative path
// (every file asked about has an entry, empty when clean), and what kept
// some from being known.
type Result struct {
	Files map[string][]Diagnostic `json:"files"`
	// Problems says why a file's diagnostics are missing: a server that
	// could not start, crashed or timed out ("gopls timed out after 10s").
	Problems []string `json:"problems,omitempty"`
}

// Checked reports whether the diagnostics of rel are known.
func (r Result) Checked(rel string) bool { _, ok := r.Files[rel]; return ok }

// Check gives each file of files (absolute path → content; nil: the
// content on disk) to its server and returns the diagnostics it settles
// on. With overlay set the contents are proposals: the servers are given
// them in memory only, and each document is set back to its content on
// disk before Check returns. Files no server checks are left out.
func (m *Manager) Check(ctx context.Context, files map[string]*string, overlay bool) Result {
	res := Result{Files: map[string][]Diagnostic{}}
	groups := map[*server][]string{}
	for abs := range files {
		if s := m.serverFor(abs); s != nil {
			groups[s] = append(groups[s], abs)
		}
	}
	limit := m.opts.Timeout
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < limit {
		limit = time.Until(dl).Round(100 * time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(ctx, m.opts.Timeout)
	defer cancel()
	var mu sync.Mutex
	var wg sync.WaitGroup
	for s, paths := range groups {
		sort.Strings(paths)
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := s.checkFiles(ctx, paths, files, overlay, limit)
			mu.Lock()
			defer mu.Unlock()
			for abs, list := range got {
				res.Files[m.rel(abs)] = m.convert(abs, list)
			}
			if err != nil {
				res.Problems = append(res.Problems, err.Error())
			}
		}()
	}
	wg.Wait()
	sort.Strings(res.Problems)
	return res
}

// checkFiles runs one server's part of a Check, holding its check lock.
func (s *server) checkFiles(ctx context.Context, paths []string, files map[string]*string, overlay bool, limit time.Duration) (map[string][]lspDiagnostic, error) {
	s.check.Lock()
	defer s.check.Unlock()
	conn, err := s.ensure(ctx)
	if err != nil {
		return nil, err
	}
	since := s.mark()
	want := map[string]need{}
	var gone []string
	for _, abs := range paths {
		text, ok := "", true
		if c := files[abs]; c != nil {
			text = *c
		} else if text, ok = readText(abs); !ok {
			gone = append(gone, abs)
			continue
		}
		v, sent, err := s.syncDoc(conn, abs, text)
		if err != nil {
			return nil, s.lost(err)
		}
		n := need{version: v}
		if sent {
			n.since = since
		}
		want[fileURI(abs)] = n
	}
	for _, abs := range gone {
		s.closeDoc(conn, abs)
	}
	err = s.settle(ctx, want)
	out := map[string][]lspDiagnostic{}
	if err == nil {
		for _, abs := range paths {
			if _, ok := want[fileURI(abs)]; ok {
				out[abs] = s.current(abs)
			} else {
				out[abs] = nil
			}
		}
	}
	if overlay {
		s.revert(conn, paths)
	}
	switch {
	case errors.Is(err, errTimeout):
		return out, fmt.Errorf("%s timed out after %s", s.cfg.Name, limit)
	case err != nil:
		return out, s.lost(err)
	}
	return out, nil
}

// lost explains an error of a server that went away.
func (s *server) lost(err error) error {
	if st := s.status(); st.State == StateCrashed {
		return fmt.Errorf("%s crashed: %s", s.cfg.Name, st.Error)
	}
	return fmt.Errorf("%s: %w", s.cfg.Name, err)
}

// revert sets the documents at paths back to their content on disk (or
// closes them), without waiting for diagnostics: the next check waits for
// its own.
func (s *server) revert(conn *Conn, paths []string) {
	for _, abs := range paths {
		if text, ok := readText(abs); ok {
			_, _, _ = s.syncDoc(conn, abs, text)
		} else {
			s.closeDoc(conn, abs)
		}
	}
}

// maxFile bounds what a server is given of one file.
const maxFile = 8 << 20

func readText(abs string) (string, bool) {
	fi, err := os.Stat(abs)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxFile {
		return "", false
	}
	b, err := os.ReadFile(abs)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// convert turns a server's diagnostics of abs into Gatehouse's, sorted by
// position.
func (m *Manager) convert(abs string, list []lspDiagnostic) []Diagnostic {
	out := make([]Diagnostic, 0, len(list))
	rel := m.rel(abs)
	for _, d := range list {
		sev := d.Severity
		if sev == 0 {
			sev = SeverityError
		}
		out = append(out, Diagnostic{Path: rel, Line: d.Range.Start.Line + 1, Col: d.Range.Start.Character + 1,
			EndLine: d.Range.End.Line + 1, Severity: sev.String(), Message: d.Message, Source: d.Source})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		return out[i].Col < out[j].Col
	})
	return out
}

// Paths returns the absolute paths of rels under the manager's root.
func (m *Manager) Paths(rels ...string) []string {
	out := make([]string, len(rels))
	for i, r := range rels {
		out[i] = filepath.Join(m.root, filepath.FromSlash(r))
	}
	return out
}

// Disk is files for Check: each path's content on disk.
func Disk(abs ...string) map[string]*string {
	out := make(map[string]*string, len(abs))
	for _, p := range abs {
		out[p] = nil
	}
	return out
}

// Changed tells the running servers that files changed on disk (the
// watcher's events): didChangeWatchedFiles, and open documents follow the
// disk unless a check holds them.
func (m *Manager) Changed(abs []string) {
	if len(abs) == 0 {
		return
	}
	for _, s := range m.servers {
		s.mu.Lock()
		conn := s.conn
		ready := s.state == StateReady
		s.mu.Unlock()
		if conn == nil || !ready {
			continue
		}
		changes := make([]map[string]any, 0, len(abs))
		for _, p := range abs {
			typ := 2 // changed
			if _, err := os.Stat(p); err != nil {
				typ = 3 // deleted
			}
			changes = append(changes, map[string]any{"uri": fileURI(p), "type": typ})
		}
		_ = conn.Notify("workspace/didChangeWatchedFiles", map[string]any{"changes": changes})
		var open []string
		for _, p := range abs {
			if s.serverFor(p) {
				open = append(open, p)
			}
		}
		if len(open) > 0 {
			go func() {
				s.check.Lock()
				defer s.check.Unlock()
				s.mu.Lock()
				var held []string
				for _, p := range open {
					if s.docs != nil && s.docs[p] != nil {
						held = append(held, p)
					}
				}
				s.mu.Unlock()
				s.revert(conn, held)
			}()
		}
	}
}

func (s *server) serverFor(abs string) bool { return s.cfg.Matches(s.m.rel(abs)) }

// Diff is what a change did to the diagnostics of the files it touched.
type Diff struct {
	Introduced []Diagnostic `json:"introduced,omitempty"`
	Fixed      []Diagnostic `json:"fixed,omitempty"`
	// Problems: why some files could not be compared.
	Problems []string `json:"problems,omitempty"`
}

// Empty reports whether there is nothing to say.
func (d Diff) Empty() bool {
	return len(d.Introduced) == 0 && len(d.Fixed) == 0 && len(d.Problems) == 0
}

// Errors counts the introduced errors.
func (d Diff) Errors() int {
	n := 0
	for _, x := range d.Introduced {
		if x.Severity == "error" {
			n++
		}
	}
	return n
}

// key identifies a diagnostic across an edit, which moves lines: the
// file, severity and message.
func key(d Diagnostic) string { return d.Path + "\x00" + d.Severity + "\x00" + d.Message }

// Compare is what changed from before to after, over the files both know:
// introduced (errors first) and fixed diagnostics.
func Compare(before, after Result) Diff {
	var d Diff
	paths := make([]string, 0, len(after.Files))
	for p := range after.Files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		b, ok := before.Files[p]
		if !ok {
			continue
		}
		a := after.Files[p]
		count := map[string]int{}
		for _, x := range b {
			count[key(x)]++
		}
		for _, x := range a {
			if count[key(x)] > 0 {
				count[key(x)]--
				continue
			}
			d.Introduced = append(d.Introduced, x)
		}
		count = map[string]int{}
		for _, x := range a {
			count[key(x)]++
		}
		for _, x := range b {
			if count[key(x)] > 0 {
				count[key(x)]--
				continue
			}
			d.Fixed = append(d.Fixed, x)
		}
	}
	bySeverity(d.Introduced)
	bySeverity(d.Fixed)
	d.Problems = append(append([]string(nil), before.Problems...), after.Problems...)
	d.Problems = uniq(d.Problems)
	return d
}

func bySeverity(l []Diagnostic) {
	rank := map[string]int{"error": 0, "warning": 1, "info": 2, "hint": 3}
	sort.SliceStable(l, func(i, j int) bool { return rank[l[i].Severity] < rank[l[j].Severity] })
}

func uniq(s []string) []string {
	sort.Strings(s)
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// maxLines bounds the lines of each list in Text.
const maxLines = 20

// Text is the diff as the model reads it after an edit: introduced
// problems first, then fixed ones, each `path:line:col severity message`,
// at most maxLines each.
func (d Diff) Text() string {
	var b strings.Builder
	list := func(title string, l []Diagnostic) {
		if len(l) == 0 {
			return
		}
		fmt.Fprintf(&b, "%s (%d):\n", title, len(l))
		for i, x := range l {
			if i == maxLines {
				fmt.Fprintf(&b, "… and %d more\n", len(l)-maxLines)
				break
			}
			b.WriteString(Format(x) + "\n")
		}
	}
	list("New problems this edit introduced", d.Introduced)
	list("Problems this edit fixed", d.Fixed)
	for _, p := range d.Problems {
		b.WriteString("Diagnostics incomplete: " + p + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

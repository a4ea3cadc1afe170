package approval

// What a parsed command does with paths: redirections, the files its
// segments read and write, and whether they reach outside the workspace,
// into .git or a protected place.

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"

	"gatehouse/internal/workspace"

	"mvdan.cc/sh/v3/syntax"
)

// redirect flags what a redirection does.
func (a *analyzer) redirect(rd *syntax.Redirect, s *segment) {
	if rd.Word == nil {
		return
	}
	target, ok := literal(rd.Word)
	ok = ok && !expands(rd.Word)
	switch rd.Op {
	case syntax.DplIn, syntax.DplOut:
		if !ok || target != "-" && strings.Trim(target, "0123456789") != "" {
			s.WritesOutside = true // >&file is a write to file
		}
		return
	case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return
	}
	if strings.HasPrefix(target, "/dev/tcp/") || strings.HasPrefix(target, "/dev/udp/") {
		s.Network = true
		return
	}
	input := rd.Op == syntax.RdrIn
	if !input && (ok && a.intoGit(target) || !ok && globNamesGit(wordPattern(rd.Word))) {
		s.WritesGit = true
		return
	}
	switch {
	case !ok:
		if input {
			s.reachesOut = true
			if src := a.src[rd.Word.Pos().Offset():rd.Word.End().Offset()]; homeish(src) {
				s.readOut(src)
			}
		} else if src := a.src[rd.Word.Pos().Offset():rd.Word.End().Offset()]; homeish(src) {
			s.writeOut(src)
		} else {
			s.WritesOutside = true
		}
	case harmlessDevice(target):
	case input && a.outsideFor(target, workspace.Read):
		s.readOut(target)
	case a.outside(target):
		if input {
			s.reachesOut = true
		} else {
			s.writeOut(target)
		}
	}
}

// readOut records that s reads path p outside the workspace.
func (s *segment) readOut(p string) {
	s.reachesOut = true
	if !slices.Contains(s.ReadsOutside, p) {
		s.ReadsOutside = append(s.ReadsOutside, p)
	}
}

// writeOut records that s writes path p outside the workspace.
func (s *segment) writeOut(p string) {
	s.WritesOutside = true
	if !slices.Contains(s.WritesOutsideTo, p) {
		s.WritesOutsideTo = append(s.WritesOutsideTo, p)
	}
}

// absorb adds to s what o (its redirections, or an enclosing statement's)
// does.
func (s *segment) absorb(o *segment) {
	s.WritesOutside = s.WritesOutside || o.WritesOutside
	s.WritesGit = s.WritesGit || o.WritesGit
	s.Network = s.Network || o.Network
	s.reachesOut = s.reachesOut || o.reachesOut
	for _, p := range o.ReadsOutside {
		s.readOut(p)
	}
	for _, p := range o.WritesOutsideTo {
		s.writeOut(p)
	}
}

// homeish reports whether the source text of a word names a place under
// the home folder through a leading tilde or $HOME.
func homeish(src string) bool {
	if strings.HasPrefix(src, "~") {
		return true
	}
	src = strings.TrimLeft(src, `"`)
	return strings.HasPrefix(src, "$HOME") || strings.HasPrefix(src, "${HOME}")
}

// outside reports whether path p (relative to the command's folder) may
// not be written: outside the workspace, protected, or under ~.
func (a *analyzer) outside(p string) bool { return a.outsideFor(p, workspace.Write) }

// outsideFor reports whether path p (relative to the command's folder) is
// out of reach for access: outside the workspace, protected, or under ~.
func (a *analyzer) outsideFor(p string, access workspace.Access) bool {
	if p == "" {
		return false
	}
	if strings.HasPrefix(p, "~") {
		return true
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(a.cwd, p)
	}
	if a.b == nil {
		return true
	}
	// The boundary refuses every write into .git; the callers flag those
	// with WritesGit, so here a .git path counts as inside when readable.
	if access == workspace.Write && a.intoGit(p) {
		access = workspace.Read
	}
	_, err := a.b.Resolve(p, access)
	return err != nil
}

// intoGit reports whether p (relative to the command's folder) names .git
// or a path inside one, as written or once its symlinks are followed.
func (a *analyzer) intoGit(p string) bool {
	if workspace.InGit(p) {
		return true
	}
	if a.b == nil || p == "" || strings.HasPrefix(p, "~") {
		return false
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(a.cwd, p)
	}
	res, err := a.b.Resolve(p, workspace.Read)
	if err != nil {
		return false
	}
	if r, ok := a.b.(interface{ Rel(string) string }); ok {
		res = r.Rel(res)
	}
	return workspace.InGit(res)
}

// harmlessRedirect reports whether rd may ride on a rule: an fd copy
// (2>&1, >&2, <&0) or /dev/null as input or output (2>/dev/null,
// &>/dev/null). Nothing else: no file, no here-document or here-string, no
// closing of an fd, no {name}> variable.
func harmlessRedirect(rd *syntax.Redirect) bool {
	if rd.N != nil && strings.Trim(rd.N.Value, "0123456789") != "" || rd.Word == nil || rd.Hdoc != nil {
		return false
	}
	target, ok := literal(rd.Word)
	if !ok || expands(rd.Word) {
		return false
	}
	switch rd.Op {
	case syntax.DplIn, syntax.DplOut:
		return target != "" && strings.Trim(target, "0123456789") == ""
	case syntax.RdrIn, syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll:
		return target == "/dev/null"
	}
	return false
}

// protected reports whether path p (relative to the command's folder) is
// in the workspace but in a protected place, rather than outside it.
func (a *analyzer) protected(p string) bool {
	if a.b == nil || strings.HasPrefix(p, "~") {
		return false
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(a.cwd, p)
	}
	_, err := a.b.Resolve(p, workspace.Write)
	var we *workspace.Error
	return errors.As(err, &we) && we.Code == workspace.CodeProtected
}

func harmlessDevice(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty":
		return true
	}
	return strings.HasPrefix(p, "/dev/fd/")
}

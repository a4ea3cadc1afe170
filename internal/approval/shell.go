package approval

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"

	"gatehouse/internal/protocol"
	"gatehouse/internal/workspace"

	"mvdan.cc/sh/v3/syntax"
)

// Boundary tells whether a path may be written; *workspace.Workspace
// implements it. The shell analysis uses it to flag redirections and file
// arguments that reach outside the workspace.
type Boundary interface {
	Resolve(path string, access workspace.Access) (string, error)
}

// maxNesting bounds how deep `bash -c '…'` strings are parsed.
const maxNesting = 3

// shellLine is a command line as the gate sees it.
type shellLine struct {
	segments []protocol.CommandSegment
	// calls holds the literal words of every simple command when the line is
	// plain: only simple commands joined by ;, &&, || and |, every word a
	// literal that expands to itself, no assignment, no redirection but the
	// harmless ones (fd copies, /dev/null), nothing opaque, dangerous or
	// reaching outside. Only a plain line can be covered by a rule or create
	// one, and a rule covers exactly these words.
	calls    [][]string
	plain    bool
	parseErr string
}

// segment is a CommandSegment while it is being built.
type segment struct {
	protocol.CommandSegment
	start, end uint
	reachesOut bool // an argument or redirection reaches outside the workspace
	// pats maps the text of each word that is not a plain literal (a glob,
	// quoted parts) to its shell pattern (wordPattern).
	pats map[string]string
}

type analyzer struct {
	src   string
	cwd   string
	b     Boundary
	depth int
	segs  []*segment
	plain bool
	calls [][]string
}

// analyzeShell parses cmd (run in cwd) with the bash grammar.
func analyzeShell(cmd, cwd string, b Boundary) shellLine {
	return analyzeDepth(cmd, cwd, b, 0)
}

func analyzeDepth(cmd, cwd string, b Boundary, depth int) shellLine {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
	if err != nil {
		return shellLine{segments: []protocol.CommandSegment{}, parseErr: err.Error()}
	}
	a := &analyzer{src: cmd, cwd: cwd, b: b, depth: depth, plain: true}
	// A multi-line script never rides on a rule: one line, one decision.
	if strings.ContainsAny(strings.TrimSpace(cmd), "\n\r") || len(f.Stmts) == 0 {
		a.plain = false
	}
	for _, st := range f.Stmts {
		a.structure(st)
	}
	a.collect(f)
	out := shellLine{plain: a.plain, segments: make([]protocol.CommandSegment, 0, len(a.segs))}
	for _, s := range a.segs {
		if s.Opaque || s.Deletes || s.Network || s.Elevates || s.WritesOutside || s.WritesGit || s.reachesOut ||
			s.Destructive != "" || s.GitCode != "" {
			out.plain = false
		}
		for _, p := range slices.Concat(s.ReadsOutside, s.WritesOutsideTo) {
			if a.protected(p) && !slices.Contains(s.ProtectedPaths, p) {
				s.ProtectedPaths = append(s.ProtectedPaths, p)
			}
		}
		s.Warnings = SegmentWarnings(s.CommandSegment)
		out.segments = append(out.segments, s.CommandSegment)
	}
	// Every simple command anywhere in the line must be one the structure
	// check saw: none hides in a redirection or a substitution.
	if out.plain && len(a.segs) == len(a.calls) {
		out.calls = a.calls
	} else {
		out.plain = false
	}
	return out
}

// structure checks that st is made only of simple commands joined by
// ;, &&, || and pipes, and records their words.
func (a *analyzer) structure(st *syntax.Stmt) {
	if st.Negated || st.Background || st.Coprocess || st.Disown {
		a.plain = false
	}
	// Only harmless redirections ride (they are not part of the words a
	// rule matches): a write to any file, even inside the workspace, is not
	// what the rule's command did.
	for _, rd := range st.Redirs {
		if !harmlessRedirect(rd) {
			a.plain = false
		}
	}
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Assigns) > 0 || len(c.Args) == 0 {
			a.plain = false
			return
		}
		words := make([]string, 0, len(c.Args))
		for _, w := range c.Args {
			s, ok := literal(w)
			if !ok || expands(w) {
				a.plain = false
				return
			}
			words = append(words, s)
		}
		a.calls = append(a.calls, words)
	case *syntax.BinaryCmd:
		a.structure(c.X)
		a.structure(c.Y)
	default: // subshells, blocks, functions, loops, tests, declarations...
		a.plain = false
	}
}

// collect makes a segment of every simple command anywhere in f, nested
// ones (in substitutions, subshells, functions) included, and applies
// redirections to the segments they cover.
func (a *analyzer) collect(f *syntax.File) {
	type redirScope struct {
		start, end uint
		flags      segment
	}
	var scopes []redirScope
	syntax.Walk(f, func(n syntax.Node) bool {
		st, ok := n.(*syntax.Stmt)
		if !ok {
			return true
		}
		var r segment
		for _, rd := range st.Redirs {
			a.redirect(rd, &r)
		}
		if call, ok := st.Cmd.(*syntax.CallExpr); ok {
			a.call(st, call).absorb(&r)
			return true
		}
		if d, ok := st.Cmd.(*syntax.DeclClause); ok {
			a.decl(st, d).absorb(&r)
			return true
		}
		if len(st.Redirs) > 0 {
			scopes = append(scopes, redirScope{st.Pos().Offset(), st.End().Offset(), r})
		}
		return true
	})
	for _, sc := range scopes {
		for _, s := range a.segs {
			if s.start >= sc.start && s.end <= sc.end {
				s.absorb(&sc.flags)
			}
		}
	}
}

// call builds the segment of one simple command.
func (a *analyzer) call(st *syntax.Stmt, c *syntax.CallExpr) *segment {
	start, end := st.Pos().Offset(), c.End().Offset()
	for _, rd := range st.Redirs {
		end = max(end, rd.End().Offset())
	}
	if st.Semicolon.IsValid() && end > st.Semicolon.Offset() {
		end = st.Semicolon.Offset()
	}
	s := &segment{start: start, end: end}
	s.Text = strings.TrimSpace(a.src[start:min(end, uint(len(a.src)))])
	s.Args = make([]string, 0, len(c.Args))
	lit := make([]bool, 0, len(c.Args))
	for _, w := range c.Args {
		v, ok := literal(w)
		if !ok {
			v = a.src[w.Pos().Offset():w.End().Offset()]
			s.Opaque = s.Opaque || hasSubst(w)
		}
		if !ok || expands(w) {
			if s.pats == nil {
				s.pats = map[string]string{}
			}
			s.pats[v] = wordPattern(w)
		}
		s.Args = append(s.Args, v)
		// A word that expands (a glob, braces, a tilde) names files that
		// cannot be told from its text.
		lit = append(lit, ok && !expands(w))
	}
	for _, as := range c.Assigns {
		if as.Value != nil && hasSubst(as.Value) {
			s.Opaque = true
		}
		if as.Name != nil && gitEnvName(as.Name.Value) && s.GitCode == "" {
			s.GitCode = as.Name.Value
		}
	}
	a.segs = append(a.segs, s)
	if len(s.Args) > 0 {
		a.classify(s, s.Args, lit)
	}
	return s
}

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

// literal returns the value of w when it has no expansion at all: only
// plain text, single quotes and double quotes around plain text.
func literal(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(unescape(p.Value, false))
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(unescape(l.Value, true))
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// expands reports whether w, though literal() reads it as text, expands
// to something else: an unquoted glob (*, ?, [), brace expansion ({a,b},
// {1..3}) or tilde (~ at the start, or after = or : in an assignment-like
// word).
func expands(w *syntax.Word) bool {
	for i, p := range w.Parts {
		l, ok := p.(*syntax.Lit)
		if !ok {
			continue
		}
		v := l.Value
		if i == 0 && strings.HasPrefix(v, "~") || strings.Contains(v, "=~") || strings.Contains(v, ":~") {
			return true
		}
		for j := 0; j < len(v); j++ {
			switch v[j] {
			case '\\':
				j++
			case '*', '?':
				return true
			case '[': // a pattern only with its closing ]: `[ -f x ]` is not
				if strings.Contains(v[j+1:], "]") {
					return true
				}
			}
		}
	}
	return syntax.SplitBraces(&syntax.Word{Parts: slices.Clone(w.Parts)})
}

// unescape removes the backslashes the shell removes: every one outside
// quotes, and inside double quotes those before $ ` " \ and newline.
func unescape(s string, dquoted bool) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		next := s[i+1]
		if dquoted && !strings.ContainsRune("$`\"\\\n", rune(next)) {
			b.WriteByte('\\')
			continue
		}
		i++
		if next != '\n' {
			b.WriteByte(next)
		}
	}
	return b.String()
}

// hasSubst reports whether w runs commands when expanded.
func hasSubst(w *syntax.Word) bool {
	found := false
	syntax.Walk(w, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			found = true
		}
		return !found
	})
	return found
}

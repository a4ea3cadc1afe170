package approval

import (
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

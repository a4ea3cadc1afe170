package approval

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"gatehouse/internal/netproxy"
	"gatehouse/internal/protocol"

	"mvdan.cc/sh/v3/syntax"
)

// Standing rules: the session rules' exact scope made durable, with a
// decision (allow, ask, deny) and the file they came from. The policy
// package loads them from files; the gate reads them on every call
// (Config.Standing) and matches them here, with the session rules' keys.
//
// A command pattern is the words of one simple command. A word may hold
// `*`, written unquoted, which matches any run of characters inside that
// one word (`test:*` matches `test:unit`), never a space, a second word, an
// operator or a redirection: a pattern covers a simple command only when it
// has exactly as many words, and a line only when every simple command of
// it is covered and the line is plain (see shellLine). A `*` quoted or
// escaped is a literal star. The program's name never holds a wildcard.

// AnyArgs, written as the last word of an ask or deny rule's command,
// stands for any further arguments (`git push **`); an allow rule cannot
// hold it.
const AnyArgs = "**"

// Verdict is what the standing policy decides for a call.
type Verdict string

const (
	VerdictNone  Verdict = ""      // no standing rule decides: the mode does
	VerdictAllow Verdict = "allow" // runs without asking
	VerdictAsk   Verdict = "ask"   // asks, whatever the mode
	VerdictDeny  Verdict = "deny"  // refused, whatever the mode
)

// ParseVerdict checks s.
func ParseVerdict(s string) (Verdict, error) {
	switch v := Verdict(s); v {
	case VerdictAllow, VerdictAsk, VerdictDeny:
		return v, nil
	}
	return "", fmt.Errorf("decision %q: want allow, ask or deny", s)
}

// StandingRule is one rule of the standing policy. Rule.Commands hold
// patterns (CommandPattern), Rule.Files path globs (`**` any folders),
// Rule.Cwd a folder relative to the workspace root ("" for allow means the
// root; for ask and deny any folder), Rule.Action "" for allow means exec.
type StandingRule struct {
	protocol.Rule
	Decision Verdict `json:"decision"`
	Reason   string  `json:"reason,omitempty"`
	// Access (rules with files) says what the rule is about for every
	// tool: read, write, or any (both); "" is the rule's own tool's files,
	// except that files on a reading tool (read_file, grep, …) are read.
	Access string `json:"access,omitempty"`
	// Layer names the file's layer (builtin, user, workspace, project) and
	// File the file itself ("" for built-in rules).
	Layer string `json:"layer"`
	File  string `json:"file,omitempty"`
	Line  int    `json:"line,omitempty"`
	// Match and NotMatch are the examples written with the rule, checked
	// when it loads.
	Match    []string `json:"match,omitempty"`
	NotMatch []string `json:"notMatch,omitempty"`
}

// Ref is how a decision names rule r.
func (r StandingRule) Ref() protocol.StandingRef {
	return protocol.StandingRef{ID: r.ID, Decision: string(r.Decision), Layer: r.Layer, File: r.File, Summary: r.Summary, Reason: r.Reason}
}

// CommandPattern parses text, one simple command written as in the shell
// ("npm run test:*", "git log --oneline"), into the words of a pattern.
func CommandPattern(text string) ([]string, error) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
	if err != nil {
		return nil, fmt.Errorf("command %q: %v", text, err)
	}
	if len(f.Stmts) != 1 || strings.ContainsAny(strings.TrimSpace(text), "\n\r") {
		return nil, fmt.Errorf("command %q: write one simple command (a line with ;, && or | is one rule per command)", text)
	}
	st := f.Stmts[0]
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || len(st.Redirs) > 0 || len(c.Assigns) > 0 || len(c.Args) == 0 {
		return nil, fmt.Errorf("command %q: write one simple command: words only, no operators, redirections or assignments", text)
	}
	words := make([]string, 0, len(c.Args))
	for i, w := range c.Args {
		p, err := patternWord(w)
		if err != nil {
			return nil, fmt.Errorf("command %q: word %d: %v", text, i+1, err)
		}
		if i == 0 && hasStar(p) {
			return nil, fmt.Errorf("command %q: the program's name cannot hold a wildcard", text)
		}
		words = append(words, p)
	}
	return words, nil
}

// patternWord is w as a pattern: unquoted `*` stays a wildcard, every
// other character (a quoted or escaped star included) is literal, escaped
// with a backslash when it is `*` or `\`.
func patternWord(w *syntax.Word) (string, error) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			v := p.Value
			for i := 0; i < len(v); i++ {
				switch {
				case v[i] == '\\' && i+1 < len(v):
					i++
					b.WriteString(escapeStar(v[i : i+1]))
				case v[i] == '\\':
					b.WriteString(`\\`)
				case strings.ContainsRune("?[{~", rune(v[i])):
					return "", fmt.Errorf("%q: only * is a wildcard; quote other special characters", v)
				default:
					b.WriteByte(v[i])
				}
			}
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", errors.New("$'…' is not a plain word")
			}
			b.WriteString(escapeStar(p.Value))
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok || p.Dollar {
					return "", errors.New("an expansion is not a plain word")
				}
				b.WriteString(escapeStar(unescape(l.Value, true)))
			}
		default:
			return "", errors.New("an expansion is not a plain word")
		}
	}
	return b.String(), nil
}

func escapeStar(s string) string {
	return strings.NewReplacer(`\`, `\\`, `*`, `\*`).Replace(s)
}

// PatternText writes pattern words back as shell text that CommandPattern
// reads as the same pattern.
func PatternText(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		pieces, star := splitStar(w)
		if !star {
			out[i] = ShellWords(pieces[:1])
			continue
		}
		var b strings.Builder
		for j, p := range pieces {
			if j > 0 {
				b.WriteByte('*')
			}
			if p != "" {
				b.WriteString(ShellWords([]string{p}))
			}
		}
		out[i] = b.String()
	}
	return strings.Join(out, " ")
}

// LiteralPattern is the pattern matching exactly words (what a dialog's
// rule saves).
func LiteralPattern(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = escapeStar(w)
	}
	return out
}

// LiteralGlob is the file glob matching exactly path p (what a dialog's
// rule saves): every character fileMatches reads as a wildcard escaped.
func LiteralGlob(p string) string {
	return strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`).Replace(p)
}

func hasStar(p string) bool { _, star := splitStar(p); return star }

// splitStar splits pattern word p at its wildcards into literal pieces.
func splitStar(p string) (pieces []string, star bool) {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		switch {
		case p[i] == '\\' && i+1 < len(p):
			i++
			b.WriteByte(p[i])
		case p[i] == '*':
			pieces, star = append(pieces, b.String()), true
			b.Reset()
		default:
			b.WriteByte(p[i])
		}
	}
	return append(pieces, b.String()), star
}

// wordMatches reports whether pattern word p matches word w whole. What a
// wildcard stands for is plain text: letters, digits and ._-:/@+=,%~^ only,
// never a space, a quote or a character the shell or a nested shell reads
// (so `test:*` never takes `test:x; curl y` as one word to a script
// runner), and a word that starts with the wildcard never matches an
// option (`-…`): an option is written where it is wanted.
func wordMatches(p, w string) bool {
	pieces, star := splitStar(p)
	if !star {
		return pieces[0] == w
	}
	first, last := pieces[0], pieces[len(pieces)-1]
	if len(w) < len(first)+len(last) || !strings.HasPrefix(w, first) || !strings.HasSuffix(w, last) {
		return false
	}
	if first == "" && strings.HasPrefix(w, "-") {
		return false
	}
	mid := w[len(first) : len(w)-len(last)]
	if strings.IndexFunc(mid, func(r rune) bool { return !wildRune(r) }) >= 0 {
		// Conservative: the literal middle pieces are plain text too when
		// written so; any other character anywhere between refuses.
		return false
	}
	for _, p := range pieces[1 : len(pieces)-1] {
		i := strings.Index(mid, p)
		if i < 0 {
			return false
		}
		mid = mid[i+len(p):]
	}
	return true
}

func wildRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-:/@+=,%~^", r)
}

// commandMatches reports whether pattern covers words: as many words,
// each matched whole. A last word `**` (ask and deny rules only, checked
// at load) stands for any further arguments, none included.
func commandMatches(pattern, words []string) bool {
	if n := len(pattern); n > 0 && pattern[n-1] == AnyArgs {
		return len(words) >= n-1 && commandMatches(pattern[:n-1], words[:n-1])
	}
	if len(pattern) == 0 || len(pattern) != len(words) {
		return false
	}
	for i := range pattern {
		if !wordMatches(pattern[i], words[i]) {
			return false
		}
	}
	return true
}

// fileMatches reports whether glob (slash-separated, `**` any folders,
// `*` and `?` within one name as path.Match) matches workspace-relative p,
// as the file system names files (samePath).
func fileMatches(glob, p string) bool {
	if foldPaths {
		glob, p = strings.ToLower(glob), samePath(p)
	}
	return globParts(strings.Split(glob, "/"), strings.Split(filepath.ToSlash(p), "/"))
}

func globParts(g, p []string) bool {
	if len(g) == 0 {
		return len(p) == 0
	}
	if g[0] == "**" {
		for i := 0; i <= len(p); i++ {
			if globParts(g[1:], p[i:]) {
				return true
			}
		}
		return false
	}
	if len(p) == 0 {
		return false
	}
	ok, err := path.Match(g[0], p[0])
	return err == nil && ok && globParts(g[1:], p[1:])
}

// standingKeys are a call's keys as standing rules see them: the folder
// relative to the workspace root, and for a line that is not plain the
// words of every simple command it holds (for ask and deny).
type standingKeys struct {
	keys
	rel    string     // cwd relative to the workspace root
	segs   [][]string // every simple command's words, plain or not
	opaque bool       // some part of the line cannot be read (eval, $(…), a parse error)
}

// covers reports whether allow rule r covers simple command words or
// file f of call k.
func (r StandingRule) scoped(k standingKeys, forAllow bool) bool {
	action, cwd := r.Action, r.Cwd
	if forAllow && action == "" {
		action = "exec"
	}
	if forAllow && cwd == "" {
		cwd = "."
	}
	return (action == "" || action == k.action) && (cwd == "" || path.Clean(cwd) == k.rel)
}

// toolMatches: an allow rule names its tool exactly; ask and deny may
// use wildcards (mcp__server__*).
func (r StandingRule) toolMatches(tool string) bool {
	if r.Decision == VerdictAllow {
		return r.Tool == tool
	}
	return wordMatches(r.Tool, tool)
}

// touches reports whether ask or deny rule r applies to call k: any part of
// it matches.
func (r StandingRule) touches(tool string, k standingKeys) bool {
	if !r.toolMatches(tool) {
		return false
	}
	if r.Domain != "" {
		return k.kind == keyDomain && slices.ContainsFunc(k.items, r.onDomain)
	}
	if len(r.Files) == 0 && len(r.Commands) == 0 {
		return true // the whole tool
	}
	switch {
	case len(r.Files) > 0 && k.kind == keyFiles:
		return slices.ContainsFunc(k.items, func(f string) bool {
			return slices.ContainsFunc(r.Files, func(g string) bool { return fileMatches(g, f) })
		})
	case len(r.Commands) > 0:
		if !r.scoped(k, false) {
			return false
		}
		return slices.ContainsFunc(k.segs, func(w []string) bool {
			return slices.ContainsFunc(r.Commands, func(p []string) bool { return commandMatches(p, w) })
		})
	}
	return false
}

// coversItem reports whether allow rule r covers one item of call k (a
// file, or one simple command's words).
func (r StandingRule) coversFile(tool, f string) bool {
	return r.Tool == tool && slices.ContainsFunc(r.Files, func(g string) bool { return fileMatches(g, f) })
}

// onDomain reports whether domain rule r names domain d: exactly, or
// below it for a "*." rule, as the network allow-list matches.
func (r StandingRule) onDomain(d string) bool {
	return r.Domain != "" && netproxy.Match([]string{r.Domain}, d)
}

// wholeTool reports whether r is about every call of its tool.
func (r StandingRule) wholeTool() bool {
	return len(r.Files) == 0 && len(r.Commands) == 0 && r.Domain == ""
}

func (r StandingRule) coversCommand(tool string, k standingKeys, words []string) bool {
	return r.Tool == tool && r.scoped(k, true) && slices.ContainsFunc(r.Commands, func(p []string) bool {
		return !slices.Contains(p, AnyArgs) && commandMatches(p, words)
	})
}

// decideStanding is the standing policy's decision on call k of tool:
// deny if a deny rule touches it, else ask if an ask rule does, else
// allow if allow rules cover every part of it, else none; with the rules
// that decided.
func decideStanding(rules []StandingRule, tool string, k standingKeys) (Verdict, []StandingRule) {
	for _, v := range []Verdict{VerdictDeny, VerdictAsk} {
		for _, r := range rules {
			if r.Decision == v && r.touches(tool, k) {
				return v, []StandingRule{r}
			}
		}
	}
	// A line that cannot be read whole (eval, a substitution, a parse
	// error) may hide what a deny or ask rule names: it asks.
	if k.opaque {
		for _, r := range rules {
			if r.Decision != VerdictAllow && len(r.Commands) > 0 && r.toolMatches(tool) && r.scoped(k, false) {
				return VerdictAsk, []StandingRule{r}
			}
		}
	}
	var allow []StandingRule
	for _, r := range rules {
		if r.Decision == VerdictAllow && r.toolMatches(tool) {
			allow = append(allow, r)
		}
	}
	var used []StandingRule
	switch k.kind {
	case keyTool:
		i := slices.IndexFunc(allow, StandingRule.wholeTool)
		if i >= 0 {
			used = allow[i : i+1]
		}
	case keyDomain:
		// A domain rule its domain only, as the session rule: an allow
		// rule without a domain never covers a fetch (the policy package
		// refuses to load one).
		used = coverStanding(k.items, allow, func(d string, r StandingRule) bool { return r.onDomain(d) })
	case keyFiles:
		used = coverStanding(k.items, allow, func(f string, r StandingRule) bool { return r.coversFile(tool, f) })
	case keyCommands:
		used = coverStanding(k.calls, allow, func(w []string, r StandingRule) bool { return r.coversCommand(tool, k, w) })
	}
	if used == nil {
		return VerdictNone, nil
	}
	return VerdictAllow, used
}

func coverStanding[T any](items []T, rules []StandingRule, covers func(T, StandingRule) bool) []StandingRule {
	if len(items) == 0 {
		return nil
	}
	var used []StandingRule
	for _, it := range items {
		i := slices.IndexFunc(rules, func(r StandingRule) bool { return covers(it, r) })
		if i < 0 {
			return nil
		}
		if !slices.ContainsFunc(used, func(u StandingRule) bool { return u.ID == rules[i].ID && u.File == rules[i].File }) {
			used = append(used, rules[i])
		}
	}
	return used
}

package approval

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gatehouse/internal/protocol"

	"mvdan.cc/sh/v3/syntax"
)

// Rules are the session rules that "approve for this session" creates. They
// are safe for concurrent use; a change applies to the next call at once.
type Rules struct {
	mu    sync.Mutex
	rules []protocol.Rule
	next  int
	hook  func(Record)
}

// NewRules returns an empty set; hook (may be nil) hears every rule added
// or revoked.
func NewRules(hook func(Record)) *Rules { return &Rules{hook: hook} }

// Add stores r under a new id and returns it.
func (rs *Rules) Add(r protocol.Rule) protocol.Rule {
	rs.mu.Lock()
	rs.next++
	r.ID = fmt.Sprintf("rule-%d", rs.next)
	r.Files = slices.Clone(r.Files)
	r.Commands = slices.Clone(r.Commands)
	rs.rules = append(rs.rules, r)
	rs.mu.Unlock()
	rs.report(Record{Kind: RecordRuleAdded, Rule: &r})
	return r
}

// List returns the rules, oldest first.
func (rs *Rules) List() []protocol.Rule {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return append([]protocol.Rule{}, rs.rules...)
}

// Revoke removes the rule with id; later calls it covered ask again.
func (rs *Rules) Revoke(id string) error {
	rs.mu.Lock()
	i := slices.IndexFunc(rs.rules, func(r protocol.Rule) bool { return r.ID == id })
	if i < 0 {
		rs.mu.Unlock()
		return fmt.Errorf("no session rule %q (already revoked?)", id)
	}
	r := rs.rules[i]
	rs.rules = slices.Delete(rs.rules, i, i+1)
	rs.mu.Unlock()
	rs.report(Record{Kind: RecordRuleRevoked, Rule: &r})
	return nil
}

func (rs *Rules) report(r Record) {
	if rs.hook != nil {
		rs.hook(r)
	}
}

// keyKind says how a call can be covered by a rule.
type keyKind int

const (
	keyNone     keyKind = iota // never: ask every time
	keyTool                    // any call of the tool
	keyFiles                   // every file in items
	keyCommands                // every simple command in calls
	keyDomain                  // the one domain in items (web_fetch)
)

// keys are what a rule must cover for a call to ride on it.
type keys struct {
	kind  keyKind
	items []string
	calls [][]string
	// action and cwd of a bash call (keyCommands); where is cwd as the
	// rule's summary names it.
	action, cwd, where string
}

// proposal is the rule a session decision on a call with keys k creates,
// or nil when none can.
func proposal(tool string, k keys) *protocol.Rule {
	switch k.kind {
	case keyTool:
		return &protocol.Rule{Tool: tool, Summary: "use " + tool + " (any arguments)"}
	case keyFiles:
		if len(k.items) == 0 {
			return nil
		}
		return &protocol.Rule{Tool: tool, Files: slices.Clone(k.items), Summary: tool + " on " + strings.Join(k.items, ", ")}
	case keyDomain:
		if len(k.items) != 1 || k.items[0] == "" {
			return nil
		}
		return &protocol.Rule{Tool: tool, Domain: k.items[0], Summary: tool + " any URL on " + k.items[0] + " (this exact domain, not its subdomains)"}
	case keyCommands:
		if len(k.calls) == 0 {
			return nil
		}
		var cs [][]string
		var shown []string
		for _, c := range k.calls {
			if !slices.ContainsFunc(cs, func(p []string) bool { return slices.Equal(p, c) }) {
				cs = append(cs, slices.Clone(c))
				shown = append(shown, "`"+ShellWords(c)+"`")
			}
		}
		where := k.where
		if where == "" {
			where = k.cwd
		}
		return &protocol.Rule{Tool: tool, Commands: cs, Action: k.action, Cwd: k.cwd,
			Summary: fmt.Sprintf("run exactly %s (%s, in %s; no other arguments, assignments or redirections but 2>&1 and /dev/null)",
				strings.Join(shown, ", "), k.action, where)}
	}
	return nil
}

// ShellWords writes words as one command line, each quoted as the shell
// needs (git config core.fsmonitor 'touch /tmp/x'), so the rule's text
// parses back to exactly the words it matches.
func ShellWords(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		q, err := syntax.Quote(w, syntax.LangBash)
		if err != nil { // a NUL byte or invalid UTF-8: Go's quoting says what it holds
			q = strconv.Quote(w)
		}
		out[i] = q
	}
	return strings.Join(out, " ")
}

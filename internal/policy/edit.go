package policy

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gatehouse/internal/approval"
	"gatehouse/internal/atomicfile"
	"gatehouse/internal/protocol"
)

// Scope is where a new rule is saved.
type Scope string

const (
	ScopeWorkspace  Scope = "workspace"  // the user's file for this workspace
	ScopeEverywhere Scope = "everywhere" // the user's file
)

// New is a rule to save.
type New struct {
	Decision approval.Verdict
	// Rule is the scope: a session rule as the dialog offers it (exact
	// words, absolute folder) or written by hand (patterns, relative
	// folder; Patterns set).
	Rule     protocol.Rule
	Patterns bool
	Reason   string
	// Examples are the lines (or paths) the rule must match: saved as its
	// match examples, checked now and at every load.
	Examples []string
	// Counter are the lines it must not match (its not_match examples).
	Counter []string
	// Access (read, write, any) makes Rule.Files paths of every tool
	// when Paths is set (or Rule.Tool is "*"): a rule written with paths.
	Access string
	Paths  bool
}

// Add saves n in scope's file of w and returns the rule as loaded. A file
// that does not load is left alone: Add refuses and says where.
func Add(w Where, scope Scope, n New) (approval.StandingRule, error) {
	file, layer := w.UserFile(), LayerUser
	if scope == ScopeWorkspace {
		if w.Workspace == "" {
			return approval.StandingRule{}, errors.New("policy: no workspace to save for")
		}
		file, layer = w.WorkspaceFile(), LayerWorkspace
	}
	fr, err := toFileRule(w, n)
	if err != nil {
		return approval.StandingRule{}, err
	}
	old, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return approval.StandingRule{}, err
	}
	if _, _, err := parse(file, layer, string(old)); err != nil {
		return approval.StandingRule{}, fmt.Errorf("policy: %w (fix it first; nothing was saved)", err)
	}
	var b bytes.Buffer
	b.Write(old)
	if len(old) == 0 {
		b.WriteString("# Gatehouse standing policy: rules that outlive a session.\n")
		if layer == LayerWorkspace {
			fmt.Fprintf(&b, "# For one workspace, kept here, never inside it.\nworkspace = %s\n", tomlString(realPath(w.Workspace)))
		}
	}
	if len(old) > 0 && !bytes.HasSuffix(old, []byte("\n")) {
		b.WriteByte('\n')
	}
	writeRule(&b, fr)
	_, rules, err := parse(file, layer, b.String())
	if err != nil {
		return approval.StandingRule{}, fmt.Errorf("policy: the new rule does not load: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return approval.StandingRule{}, err
	}
	if err := atomicfile.Write(file, b.Bytes(), 0o600); err != nil {
		return approval.StandingRule{}, err
	}
	return rules[len(rules)-1], nil
}

// toFileRule writes n as it is saved: commands as shell text, files as
// globs (a dialog's exact words and paths escaped so they match themselves
// only), the folder relative to the workspace root.
func toFileRule(w Where, n New) (Written, error) {
	r := n.Rule
	fr := Written{ID: newID(), Decision: string(n.Decision), Tool: r.Tool, Files: slices.Clone(r.Files), Action: r.Action,
		Domain: r.Domain, Reason: n.Reason, Match: slices.Clone(n.Examples), NotMatch: slices.Clone(n.Counter)}
	if !n.Patterns {
		for i, f := range fr.Files {
			fr.Files[i] = approval.LiteralGlob(f)
		}
	}
	for _, c := range r.Commands {
		if !n.Patterns {
			c = approval.LiteralPattern(c)
		}
		fr.Commands = append(fr.Commands, approval.PatternText(c))
	}
	fr.Access = n.Access
	if n.Paths || r.Tool == "*" && n.Access != "" {
		fr.Tool, fr.Paths, fr.Files = "", fr.Files, nil
	}
	fr.Cwd = r.Cwd
	if filepath.IsAbs(r.Cwd) {
		if w.Workspace == "" {
			return fr, errors.New("policy: a folder rule needs its workspace")
		}
		rel, err := filepath.Rel(realPath(w.Workspace), r.Cwd)
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			return fr, fmt.Errorf("policy: folder %s is outside the workspace", r.Cwd)
		}
		fr.Cwd = filepath.ToSlash(rel)
	}
	if fr.Action == "exec" {
		fr.Action = ""
	}
	if fr.Cwd == "." && n.Decision == approval.VerdictAllow {
		fr.Cwd = ""
	}
	return fr, nil
}

func newID() string {
	var b [4]byte
	rand.Read(b[:])
	return "p-" + hex.EncodeToString(b[:])
}

func tomlString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

func tomlStrings(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = tomlString(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func writeRule(b *bytes.Buffer, fr Written) {
	b.WriteString("\n[[rule]]\n")
	kv := func(k, v string) {
		if v != "" {
			fmt.Fprintf(b, "%s = %s\n", k, tomlString(v))
		}
	}
	kvs := func(k string, v []string) {
		if len(v) > 0 {
			fmt.Fprintf(b, "%s = %s\n", k, tomlStrings(v))
		}
	}
	kv("id", fr.ID)
	kv("decision", fr.Decision)
	kv("tool", fr.Tool)
	kvs("commands", fr.Commands)
	kvs("files", fr.Files)
	kvs("paths", fr.Paths)
	kv("access", fr.Access)
	kv("action", fr.Action)
	kv("cwd", fr.Cwd)
	kv("domain", fr.Domain)
	kv("reason", fr.Reason)
	kvs("match", fr.Match)
	kvs("not_match", fr.NotMatch)
}

// Remove deletes rule id from the user's files of w (the workspace's own
// file is the workspace's to edit). The rest of the file, comments
// included, stays as it was.
func Remove(w Where, id string) (approval.StandingRule, error) {
	return rewrite(w, id, "removed", func(approval.StandingRule) (string, error) { return "", nil })
}

// Replace puts n in the place of rule id in the user's file that holds it,
// keeping its id and the rest of the file as it was, and returns the rule
// as loaded. The whole file is checked before it is written (atomically):
// an edit that does not load changes nothing and says why.
func Replace(w Where, id string, n New) (approval.StandingRule, error) {
	var out approval.StandingRule
	_, err := rewrite(w, id, "changed", func(old approval.StandingRule) (string, error) {
		fr, err := toFileRule(w, n)
		if err != nil {
			return "", err
		}
		fr.ID = old.ID
		var b bytes.Buffer
		writeRule(&b, fr)
		return strings.TrimPrefix(b.String(), "\n"), nil
	}, func(rules []approval.StandingRule) {
		if i := slices.IndexFunc(rules, func(r approval.StandingRule) bool { return r.ID == id }); i >= 0 {
			out = rules[i]
		}
	})
	return out, err
}

// rewrite replaces the lines of rule id in the user's files of w with
// what with returns ("" deletes the rule), checks the whole new text and
// writes it; then hands the loaded rules to each of after.
func rewrite(w Where, id, verb string, with func(approval.StandingRule) (string, error), after ...func([]approval.StandingRule)) (approval.StandingRule, error) {
	for _, f := range []struct{ file, layer string }{{w.UserFile(), LayerUser}, {w.WorkspaceFile(), LayerWorkspace}} {
		if f.file == "" {
			continue
		}
		old, err := os.ReadFile(f.file)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return approval.StandingRule{}, err
		}
		_, rules, err := parse(f.file, f.layer, string(old))
		if err != nil {
			return approval.StandingRule{}, fmt.Errorf("policy: %w (fix it first; nothing was %s)", err, verb)
		}
		i := slices.IndexFunc(rules, func(r approval.StandingRule) bool { return r.ID == id })
		if i < 0 {
			continue
		}
		lines := strings.SplitAfter(string(old), "\n")
		start, end := rules[i].Line-1, len(lines)
		if i+1 < len(rules) {
			end = rules[i+1].Line - 1
		}
		// Keep comment and blank lines just above the next rule: they are its.
		for end > start+1 && (strings.HasPrefix(strings.TrimSpace(lines[end-1]), "#") || strings.TrimSpace(lines[end-1]) == "") {
			end--
		}
		repl, err := with(rules[i])
		if err != nil {
			return approval.StandingRule{}, err
		}
		// A removed rule takes the blank line Add wrote above it along.
		if repl == "" && start > 0 && strings.TrimSpace(lines[start-1]) == "" {
			start--
		}
		text := strings.Join(slices.Concat(lines[:start], []string{repl}, lines[end:]), "")
		_, now, err := parse(f.file, f.layer, text)
		if err != nil {
			return approval.StandingRule{}, fmt.Errorf("policy: %s would not load, so nothing was %s: %w", id, verb, err)
		}
		if err := atomicfile.Write(f.file, []byte(text), 0o600); err != nil {
			return approval.StandingRule{}, err
		}
		for _, a := range after {
			a(now)
		}
		return rules[i], nil
	}
	return approval.StandingRule{}, fmt.Errorf("policy: no rule %q in the user's files (a workspace's own rules are edited in its .gatehouse/policy.toml, built-in ones are overridden by a deny or ask of yours)", id)
}

package hooks

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"gatehouse/internal/atomicfile"
	"gatehouse/internal/protocol"
)

// Importing Claude Code's hooks (Settings → Hooks → Import from Claude
// Code) reads the "hooks" of the user's ~/.claude/settings.json, shows
// each command, and writes the chosen ones into the user's hooks file,
// merged with what is there (a hook with the same event, matcher and
// command is there already and is not written twice). A project's
// .claude/settings.json is not imported: it is the workspace's, and
// Gatehouse runs a workspace's hooks only from .gatehouse/hooks.json,
// trusted and confined, never as the user's own.
//
// Where Claude Code goes on, Gatehouse blocks: a PreToolUse or
// UserPromptSubmit hook that cannot start, times out, is killed or exits
// other than 0 and 2 blocks the call or prompt. The rule the import uses
// to say which hooks would now block: each such hook (without onError
// "continue") is run once on a sample (Try), and one that fails there is
// marked, with why. The user may import it with onError "continue", as
// Claude Code treats it.

// ImportCandidate is one hook of Claude Code's settings as the import shows it.
type ImportCandidate struct {
	// Key names it among the import's candidates (event, matcher, command).
	Key     string  `json:"key"`
	Event   string  `json:"event"`
	Matcher string  `json:"matcher"`
	Command string  `json:"command"`
	Timeout float64 `json:"timeout,omitempty"`
	// Skip says why it cannot be imported ("" when it can): an event
	// Gatehouse does not run, a hook type other than command, no command.
	Skip string `json:"skip,omitempty"`
	// Duplicate: the user's hooks file has it already.
	Duplicate bool `json:"duplicate,omitempty"`
	// FailsClosed: a failure of it would block here (PreToolUse,
	// UserPromptSubmit), where Claude Code goes on.
	FailsClosed bool `json:"failsClosed,omitempty"`
	// Checked is its run on a sample (Check); nil before.
	Checked *protocol.HookRun `json:"checked,omitempty"`
	// WouldBlock says why it would now block (it failed on the sample);
	// "" when it did not, or was not checked.
	WouldBlock string `json:"wouldBlock,omitempty"`
}

// ClaudeImport is what an import would bring in.
type ClaudeImport struct {
	// From is the Claude Code settings file read; Into the hooks file
	// written.
	From       string            `json:"from"`
	Into       string            `json:"into"`
	Candidates []ImportCandidate `json:"candidates"`
}

// claudeCommand is a hook entry of Claude Code's settings, any type.
type claudeCommand struct {
	Type    string  `json:"type"`
	Command string  `json:"command"`
	Timeout float64 `json:"timeout"`
}

// ReadClaude reads the hooks of Claude Code's settings file from and
// marks each against the user's hooks file into. A file that cannot be
// read or is not Claude Code's settings shape is an error naming it.
func ReadClaude(from, into string) (ClaudeImport, error) {
	im := ClaudeImport{From: from, Into: into, Candidates: []ImportCandidate{}}
	b, err := readCapped(from)
	if errors.Is(err, os.ErrNotExist) {
		return im, fmt.Errorf("there is no %s", from)
	}
	if err != nil {
		return im, err
	}
	var doc struct {
		Hooks map[string][]struct {
			Matcher string          `json:"matcher"`
			Hooks   []claudeCommand `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return im, fmt.Errorf("%s is not Claude Code's settings: %w", from, err)
	}
	have, err := Load(into)
	if err != nil {
		return im, fmt.Errorf("your hooks file cannot be read, so nothing is imported into it: %w", err)
	}
	events := make([]string, 0, len(doc.Hooks))
	for ev := range doc.Hooks {
		events = append(events, ev)
	}
	sortEvents(events)
	for _, ev := range events {
		for _, g := range doc.Hooks[ev] {
			for _, c := range g.Hooks {
				cand := ImportCandidate{Key: candidateKey(ev, g.Matcher, c.Command), Event: ev, Matcher: g.Matcher, Command: c.Command, Timeout: c.Timeout}
				switch {
				case eventRank(Event(ev)) == len(Events):
					cand.Skip = fmt.Sprintf("Gatehouse does not run %s hooks", ev)
				case c.Type != "command":
					cand.Skip = fmt.Sprintf("a %q hook: Gatehouse runs command hooks only", c.Type)
				case strings.TrimSpace(c.Command) == "":
					cand.Skip = "no command"
				case c.Timeout < 0:
					cand.Skip = "a negative timeout"
				}
				if cand.Skip == "" {
					if _, err := Parse(fileOf(ev, g.Matcher, c, false), from); err != nil {
						cand.Skip = err.Error()
					}
				}
				cand.Duplicate = cand.Skip == "" && hasHook(have, Event(ev), g.Matcher, c.Command)
				cand.FailsClosed = cand.Skip == "" && Event(ev).failsClosed()
				im.Candidates = append(im.Candidates, cand)
			}
		}
	}
	return im, nil
}

// Check runs each candidate that would fail closed here once on a sample
// (Try), in parallel, in dir, and marks the ones that fail: those would
// now block the call or prompt where Claude Code goes on.
func (im *ClaudeImport) Check(ctx context.Context, dir string, environ func() []string) {
	var wg sync.WaitGroup
	for i := range im.Candidates {
		c := &im.Candidates[i]
		if c.Skip != "" || !c.FailsClosed {
			continue
		}
		hs, err := Parse(fileOf(c.Event, c.Matcher, claudeCommand{Type: "command", Command: c.Command, Timeout: c.Timeout}, false), im.From)
		if err != nil || len(hs) != 1 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			ran, err := Try(ctx, hs[0], dir, environ)
			if err != nil {
				c.WouldBlock = err.Error()
				return
			}
			c.Checked = &ran
			if ran.Failed != "" {
				c.WouldBlock = ran.Failed + " on a sample " + sampleWord(Event(c.Event)) + "; Claude Code would go on, Gatehouse blocks"
			}
		}()
	}
	wg.Wait()
}

func sampleWord(ev Event) string {
	if ev == UserPromptSubmit {
		return "prompt"
	}
	return "call"
}

// ImportPick is a candidate the user chose, by key; ContinueOnError imports it
// with onError "continue" (a failure lets the call go on, as in Claude
// Code).
type ImportPick struct {
	Key             string `json:"key"`
	ContinueOnError bool   `json:"continueOnError"`
}

// Merge writes the picked candidates of im into im.Into, after what is
// there, atomically: the file is whole before and after, other hooks and
// fields kept. A candidate already there is not written twice; a key
// that is not a candidate, one that is skipped, or a hooks file that does
// not parse is an error and nothing is written. It returns how many hooks
// were added.
func (im ClaudeImport) Merge(picks []ImportPick) (int, error) {
	byKey := map[string]ImportCandidate{}
	for _, c := range im.Candidates {
		byKey[c.Key] = c
	}
	var doc map[string]any
	old, err := os.ReadFile(im.Into)
	switch {
	case errors.Is(err, os.ErrNotExist):
		doc = map[string]any{}
	case err != nil:
		return 0, err
	default:
		if _, err := Parse(old, im.Into); err != nil {
			return 0, fmt.Errorf("your hooks file is not valid, so nothing is imported into it: %w", err)
		}
		if err := json.Unmarshal(old, &doc); err != nil || doc == nil {
			return 0, fmt.Errorf("%s: not a JSON object", im.Into)
		}
	}
	hooksObj, _ := doc["hooks"].(map[string]any)
	if hooksObj == nil {
		hooksObj = map[string]any{}
	}
	added := 0
	seen := map[string]bool{}
	for _, p := range picks {
		c, ok := byKey[p.Key]
		switch {
		case !ok:
			return 0, fmt.Errorf("no hook %q in %s (it changed since it was shown: look again)", p.Key, im.From)
		case c.Skip != "":
			return 0, fmt.Errorf("%s hook %q cannot be imported: %s", c.Event, c.Command, c.Skip)
		case c.Duplicate || seen[p.Key]:
			continue
		}
		seen[p.Key] = true
		groups, _ := hooksObj[c.Event].([]any)
		entry := map[string]any{"type": "command", "command": c.Command}
		if c.Timeout > 0 {
			entry["timeout"] = c.Timeout
		}
		if p.ContinueOnError {
			entry["onError"] = "continue"
		}
		placed := false
		for _, g := range groups {
			gm, _ := g.(map[string]any)
			m, _ := gm["matcher"].(string)
			if gm == nil || normMatcher(m) != normMatcher(c.Matcher) {
				continue
			}
			hs, _ := gm["hooks"].([]any)
			gm["hooks"] = append(hs, entry)
			placed = true
			break
		}
		if !placed {
			g := map[string]any{"hooks": []any{entry}}
			if c.Matcher != "" {
				g["matcher"] = c.Matcher
			}
			groups = append(groups, g)
		}
		hooksObj[c.Event] = groups
		added++
	}
	if added == 0 {
		return 0, nil
	}
	doc["hooks"] = hooksObj
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return 0, err
	}
	if _, err := Parse(buf.Bytes(), im.Into); err != nil {
		return 0, fmt.Errorf("the merged hooks file would not be valid, nothing written: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(im.Into), 0o700); err != nil {
		return 0, err
	}
	return added, atomicfile.Write(im.Into, buf.Bytes(), 0o600)
}

// candidateKey names a candidate by what makes it one hook.
func candidateKey(ev, matcher, command string) string {
	sum := sha256.Sum256([]byte(ev + "\x00" + normMatcher(matcher) + "\x00" + command))
	return hex.EncodeToString(sum[:8])
}

// normMatcher: "" and "*" both match every tool.
func normMatcher(m string) string {
	if m = strings.TrimSpace(m); m == "*" {
		return ""
	}
	return m
}

func hasHook(hs []Hook, ev Event, matcher, command string) bool {
	for _, h := range hs {
		if h.Event == ev && normMatcher(h.Matcher) == normMatcher(matcher) && h.Command == command {
			return true
		}
	}
	return false
}

// fileOf is a hooks file holding one hook, for Parse to check it.
func fileOf(ev, matcher string, c claudeCommand, continueOnError bool) []byte {
	cmd := map[string]any{"type": c.Type, "command": c.Command}
	if c.Timeout > 0 {
		cmd["timeout"] = c.Timeout
	}
	if continueOnError {
		cmd["onError"] = "continue"
	}
	b, _ := json.Marshal(map[string]any{"hooks": map[string]any{ev: []any{map[string]any{"matcher": matcher, "hooks": []any{cmd}}}}})
	return b
}

func sortEvents(evs []string) {
	sort.Slice(evs, func(i, j int) bool {
		ri, rj := eventRank(Event(evs[i])), eventRank(Event(evs[j]))
		if ri != rj {
			return ri < rj
		}
		return evs[i] < evs[j]
	})
}

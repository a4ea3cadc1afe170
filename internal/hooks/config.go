// Package hooks runs the user's own checks around a session: commands in
// the JSON shape Claude Code uses, so a team's hooks work when pasted or
// imported.
//
//	{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
//	    {"type": "command", "command": "$CLAUDE_PROJECT_DIR/.hooks/no-rm.sh", "timeout": 10}]}]}}
//
// A matcher is a regular expression over tool names, matched whole ("" or
// "*" matches every tool); events without tools ignore it. Each matching
// hook runs once, in parallel with the others, with its input as JSON on
// stdin (Input), in the project folder, in its own process group, with an
// environment without the model's key, OPENAI_* or GATEHOUSE_* variables
// and with CLAUDE_PROJECT_DIR and GATEHOUSE_PROJECT_DIR set. What its exit
// code and output mean is pinned per event in contract.go (and the
// README's table); the strictest answer wins.
//
// Fail closed: a PreToolUse or UserPromptSubmit hook that cannot start,
// times out, is killed or exits other than 0 and 2 blocks the call or the
// prompt, naming the hook, unless it says "onError": "continue". Other
// events report the failure and go on.
//
// A Runner may be used from several goroutines at once.
package hooks

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"
)

// Event is when a hook runs.
type Event string

const (
	SessionStart       Event = "SessionStart"
	UserPromptSubmit   Event = "UserPromptSubmit"
	PreToolUse         Event = "PreToolUse"
	PostToolUse        Event = "PostToolUse"
	PostToolUseFailure Event = "PostToolUseFailure"
	Stop               Event = "Stop"
	SubagentStart      Event = "SubagentStart"
	SubagentStop       Event = "SubagentStop"
	PreCompact         Event = "PreCompact"
	Notification       Event = "Notification"
	SessionEnd         Event = "SessionEnd"
)

// Events are the events Gatehouse runs hooks on.
var Events = []Event{SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PostToolUseFailure,
	Stop, SubagentStart, SubagentStop, PreCompact, Notification, SessionEnd}

// hasTools: the events whose matcher is over tool names.
func (e Event) hasTools() bool {
	return e == PreToolUse || e == PostToolUse || e == PostToolUseFailure
}

// failsClosed: the events where a failing hook blocks.
func (e Event) failsClosed() bool { return e == PreToolUse || e == UserPromptSubmit }

// Scopes of a hook: the user's own hooks file, a workspace's, or an agent
// definition's front matter (the user's or, Confined, a workspace's).
const (
	ScopeUser      = "user"
	ScopeWorkspace = "workspace"
	ScopeAgent     = "agent"
)

// DefaultTimeout is a hook's timeout when its entry gives none.
const DefaultTimeout = 30 * time.Second

// MaxConfigBytes caps a hooks file.
const MaxConfigBytes = 1 << 20

// File is a hooks file as written.
type File struct {
	Hooks map[Event][]Group `json:"hooks"`
}

// Group is a matcher and the hooks it runs.
type Group struct {
	Matcher string    `json:"matcher,omitempty"`
	Hooks   []Command `json:"hooks"`
}

// Command is one hook as written.
type Command struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	// Timeout is in seconds (0: DefaultTimeout).
	Timeout float64 `json:"timeout,omitempty"`
	// OnError "continue" lets a failing blocking hook let the call or
	// prompt go on (reported); "" or "block" fails closed.
	OnError string `json:"onError,omitempty"`
}

// Hook is one hook ready to run.
type Hook struct {
	Event   Event
	Matcher string // as written
	Command string
	Timeout time.Duration
	// ContinueOnError: onError "continue".
	ContinueOnError bool
	// Source is the file the hook came from; Index its place in it.
	Source string
	Index  int
	// Scope says whose the hook is: ScopeUser ("" reads as it),
	// ScopeWorkspace or ScopeAgent.
	Scope string
	// Agent names the definition of a ScopeAgent hook: it runs for that
	// agent's child sessions only.
	Agent string
	// Disabled hooks are listed and never run.
	Disabled bool
	// Confined: a workspace's hook, run only through Runner.Confine.
	Confined bool
	re       *regexp.Regexp // nil: every tool
}

// Matches reports whether the hook runs for a tool named name (events
// without tools: always).
func (h Hook) Matches(name string) bool {
	if !h.Event.hasTools() || h.re == nil {
		return true
	}
	return h.re.MatchString(name)
}

// Parse reads a hooks file's bytes; source names it in errors and in the
// hooks. An unknown event, a bad matcher, a type other than "command" or
// an empty command is an error naming where: nothing of a bad file runs.
func Parse(b []byte, source string) ([]Hook, error) {
	if len(b) > MaxConfigBytes {
		return nil, fmt.Errorf("%s: over %d KiB", source, MaxConfigBytes>>10)
	}
	var f File
	dec := json.NewDecoder(strings.NewReader(string(b)))
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	return f.hooks(source, source)
}

// hooks are f's hooks, from source; errors name where (source, or more).
func (f File) hooks(source, where string) ([]Hook, error) {
	events := make([]string, 0, len(f.Hooks))
	for ev := range f.Hooks {
		events = append(events, string(ev))
	}
	sort.Slice(events, func(i, j int) bool { return eventRank(Event(events[i])) < eventRank(Event(events[j])) })
	var out []Hook
	for _, evs := range events {
		ev := Event(evs)
		if eventRank(ev) == len(Events) {
			return nil, fmt.Errorf("%s: unknown event %q (one of %s)", where, ev, eventList())
		}
		n := 0
		for gi, g := range f.Hooks[ev] {
			var re *regexp.Regexp
			if m := strings.TrimSpace(g.Matcher); m != "" && m != "*" {
				var err error
				if re, err = regexp.Compile("^(?:" + m + ")$"); err != nil {
					return nil, fmt.Errorf("%s: %s[%d].matcher %q: %v", where, ev, gi, g.Matcher, err)
				}
			}
			for hi, c := range g.Hooks {
				where := fmt.Sprintf("%s: %s[%d].hooks[%d]", where, ev, gi, hi)
				if c.Type != "command" {
					return nil, fmt.Errorf("%s: type %q (only \"command\" hooks run)", where, c.Type)
				}
				if strings.TrimSpace(c.Command) == "" {
					return nil, fmt.Errorf("%s: no command", where)
				}
				if c.Timeout < 0 {
					return nil, fmt.Errorf("%s: a negative timeout", where)
				}
				if c.OnError != "" && c.OnError != "continue" && c.OnError != "block" {
					return nil, fmt.Errorf("%s: onError %q (continue or block)", where, c.OnError)
				}
				t := DefaultTimeout
				if c.Timeout > 0 {
					t = time.Duration(c.Timeout * float64(time.Second))
				}
				out = append(out, Hook{Event: ev, Matcher: g.Matcher, Command: c.Command, Timeout: t,
					ContinueOnError: c.OnError == "continue", Source: source, Index: n, re: re})
				n++
			}
		}
	}
	return out, nil
}

// Load reads the hooks file at path; a missing file holds none.
func Load(path string) ([]Hook, error) {
	b, err := readCapped(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return Parse(b, path)
}

// readCapped reads the regular file at path, at most MaxConfigBytes.
func readCapped(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	if fi.Size() > MaxConfigBytes {
		return nil, fmt.Errorf("%s: over %d KiB", path, MaxConfigBytes>>10)
	}
	return os.ReadFile(path)
}

func eventRank(e Event) int {
	for i, v := range Events {
		if v == e {
			return i
		}
	}
	return len(Events)
}

func eventList() string {
	s := make([]string, len(Events))
	for i, e := range Events {
		s[i] = string(e)
	}
	return strings.Join(s, ", ")
}

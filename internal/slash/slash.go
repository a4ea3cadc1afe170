// Package slash is the one registry of the composer's "/" entries: the
// built-ins, the user's own commands, the trusted workspace's commands, and
// whatever later sources register (skills, MCP prompts). The window lists
// it for the "/" menu and resolves the entry a submitted message names
// through it, so every "/" entry reaches the model by the one submit path.
//
// Precedence, when two sources offer one name: built-in, then the user's
// commands, then the workspace's, then skills, then MCP prompts (the Origin
// order). The winner is what /name runs; every loser is still listed,
// marked ShadowedBy the winner's source, so the menu can say why it does
// not run.
//
// A Registry may be listed and resolved from several goroutines at once;
// Register is meant for assembly time, before the first List.
package slash

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"sync"
)

// Origin is who offers an entry; it orders a clash (earlier wins).
type Origin string

const (
	Builtin   Origin = "built-in"
	User      Origin = "user"
	Workspace Origin = "workspace"
	Skill     Origin = "skill"
	Prompt    Origin = "mcp-prompt"
)

// EnumValues lists the kinds, winner first (tsgen).
func (Origin) EnumValues() []string {
	return []string{string(Builtin), string(User), string(Workspace), string(Skill), string(Prompt)}
}

func (k Origin) rank() int {
	for i, v := range k.EnumValues() {
		if v == string(k) {
			return i
		}
	}
	return len(k.EnumValues())
}

// Command is one "/" entry.
type Command struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Origin      Origin `json:"origin"`
	// Source is "built-in", the file the entry came from, or the server
	// or skill that offers it.
	Source string `json:"source"`
	// ShadowedBy is set on an entry another of the same name beats: the
	// winner's source. A shadowed entry is listed and never runs.
	ShadowedBy string `json:"shadowedBy,omitempty"`
	// Expand turns the arguments typed after /name into the message the
	// model is sent; nil for a built-in, which the window does itself.
	Expand func(args string) (string, error) `json:"-"`
}

// Provider returns a source's entries as they are now (read again on every
// List, so a new or changed file shows at once), and the entries it had to
// leave out, as errors. It must be safe to call concurrently.
type Provider func() ([]Command, []error)

var validName = regexp.MustCompile(`^[a-z0-9][a-z0-9_:.-]{0,127}$`)

// ValidName reports whether name can be typed after "/".
func ValidName(name string) bool { return validName.MatchString(name) }

// Registry is the list of sources.
type Registry struct {
	mu        sync.Mutex
	providers []provider
}

type provider struct {
	kind Origin
	fn   Provider
}

// New returns a registry holding the built-ins.
func New() *Registry {
	r := &Registry{}
	r.Register(Builtin, func() ([]Command, []error) { return Builtins(), nil })
	return r
}

// Register adds a source of entries of kind.
func (r *Registry) Register(kind Origin, p Provider) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.providers = append(r.providers, provider{kind, p})
}

// List returns every entry: the winners of each name first, by kind
// (built-ins first) then name, then the shadowed ones by name; errs are
// the entries the sources left out.
func (r *Registry) List() (entries []Command, errs []error) {
	r.mu.Lock()
	ps := append([]provider(nil), r.providers...)
	r.mu.Unlock()
	var all []Command
	for _, p := range ps {
		es, perrs := p.fn()
		errs = append(errs, perrs...)
		for _, e := range es {
			e.Origin = p.kind
			if !ValidName(e.Name) {
				errs = append(errs, fmt.Errorf("%s: /%s is not a name (lower-case letters, digits, - _ : .)", e.Source, e.Name))
				continue
			}
			if e.Origin != Builtin && e.Expand == nil {
				errs = append(errs, fmt.Errorf("%s: /%s sends nothing", e.Source, e.Name))
				continue
			}
			all = append(all, e)
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].Name != all[j].Name {
			return all[i].Name < all[j].Name
		}
		return all[i].Origin.rank() < all[j].Origin.rank()
	})
	var win, lose []Command
	for i, e := range all {
		if i > 0 && all[i-1].Name == e.Name {
			e.ShadowedBy = win[len(win)-1].Source
			lose = append(lose, e)
			continue
		}
		win = append(win, e)
	}
	sort.SliceStable(win, func(i, j int) bool { return win[i].Origin.rank() < win[j].Origin.rank() })
	return append(win, lose...), errs
}

// Resolve returns the entry /name runs: the winner of its name.
func (r *Registry) Resolve(name string) (Command, bool) {
	es, _ := r.List()
	for _, e := range es {
		if e.Name == name && e.ShadowedBy == "" {
			return e, true
		}
	}
	return Command{}, false
}

// ErrBuiltin: a built-in was submitted as a message; the window runs it.
var ErrBuiltin = errors.New("a built-in command is run by the window, not sent")

// Message is the text /name sends for args: the winner's expansion. A
// built-in or an unknown name is an error saying so.
func (r *Registry) Message(name, args string) (string, error) {
	e, ok := r.Resolve(name)
	if !ok {
		return "", fmt.Errorf("no command /%s", name)
	}
	if e.Origin == Builtin {
		return "", fmt.Errorf("/%s: %w", name, ErrBuiltin)
	}
	return e.Expand(args)
}

// Builtins are the composer's own commands, run by the window itself.
func Builtins() []Command {
	return []Command{
		{Name: "compact", Description: "Replace older turns by a summary in what the model is sent", Source: "built-in"},
		{Name: "plan", Description: "Switch to plan mode: the agent only reads, then proposes a plan", Source: "built-in"},
		{Name: "undo", Description: "Review and undo the last turn's changes", Source: "built-in"},
		{Name: "clear", Description: "Start a new session", Source: "built-in"},
		{Name: "experimental", Description: "Turn on an experimental feature for this session: /experimental teams (agent teams)", Source: "built-in"},
	}
}

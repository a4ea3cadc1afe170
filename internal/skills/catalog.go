package skills

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"gatehouse/internal/tools"
)

// MaxCatalogChars bounds the catalog the model reads (names, descriptions,
// folders); skills past it are named without their descriptions.
const MaxCatalogChars = 12 << 10

// MaxBodyChars caps the instructions one activation returns.
const MaxBodyChars = 64 << 10

// maxListedFiles bounds the files an activation lists from the folder.
const maxListedFiles = 50

// Catalog is one session's skills: the set found (replaced whole by
// Reload) and which skills this session loaded. It is the provider of the
// skill tool. Safe for concurrent use.
type Catalog struct {
	opts Options
	// Rel shows a folder to the model as the session's boundary does
	// (workspace-relative inside it); nil: absolute.
	Rel func(string) string
	cur atomic.Pointer[Set]
	// parent is the catalog whose skills a child's shows (nil: its own).
	parent *Catalog

	// reload serializes discoveries and OnRoots.
	reload  sync.Mutex
	onRoots func([]string)
	roots   []string // as last told to onRoots

	mu     sync.Mutex
	fp     string       // fingerprint of what the last discovery read
	loaded []Activation // in the order loaded
}

// NewCatalog discovers the skills o names.
func NewCatalog(o Options) *Catalog {
	c := &Catalog{opts: o}
	c.discover(o)
	return c
}

// Reload discovers the skills again: a workspace's just trusted (or
// changed since) counts from the next model request on.
func (c *Catalog) Reload() Set {
	c = c.root()
	c.mu.Lock()
	o := c.opts
	c.mu.Unlock()
	return c.discover(o)
}

// Configure changes the user's choices (Claude Code's folder, the skills
// turned off) and discovers again.
func (c *Catalog) Configure(claude bool, off []string) Set {
	c = c.root()
	c.mu.Lock()
	c.opts.Claude, c.opts.Disabled = claude, slices.Clone(off)
	o := c.opts
	c.mu.Unlock()
	return c.discover(o)
}

// Set is the skills as last discovered.
func (c *Catalog) Set() Set { return *c.root().cur.Load() }

// root is the catalog that discovers for c: c, or a child's parent.
func (c *Catalog) root() *Catalog {
	if c.parent != nil {
		return c.parent
	}
	return c
}

// Child returns a catalog of the same skills with nothing loaded, for a
// child session (whose tools filter the skill tool as any other): it
// shows the parent's skills as the parent discovers them.
func (c *Catalog) Child() *Catalog {
	return &Catalog{parent: c.root(), Rel: c.Rel}
}

// ForChild is Child as a tools.Provider (agents.ChildProvider): a child
// session gets the parent's catalog, filtered by its own tools' policy.
func (c *Catalog) ForChild() tools.Provider { return c.Child() }

// Activation is a skill loaded into the session.
type Activation struct {
	Skill string `json:"skill"`
	// Folder is where the skill's files are, as the file tools take it.
	Folder string `json:"folder"`
	// Instructions is SKILL.md's body (capped).
	Instructions string `json:"instructions,omitempty"`
	// Files are paths inside the folder (scripts/, references/, assets/).
	Files []string `json:"files,omitempty"`
	// AllowedTools is the skill's own claim, shown to the user; it grants
	// no approval.
	AllowedTools string `json:"allowedTools,omitempty"`
	// AlreadyLoaded: the session has the instructions already.
	AlreadyLoaded bool   `json:"alreadyLoaded,omitempty"`
	Note          string `json:"note,omitempty"`
}

// Activate loads the offered skill name into the session: its
// instructions the first time, a note that it is loaded after that. A
// workspace skill is checked against trust again first (an edit since
// takes its trust back).
func (c *Catalog) Activate(name string) (Activation, error) {
	set := c.Set()
	k, ok := set.Find(name)
	if ok && k.Workspace {
		set = c.Reload()
		k, ok = set.Find(name)
	}
	if !ok {
		return Activation{}, fmt.Errorf("no skill named %q is offered%s", name, c.why(set, name))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, a := range c.loaded {
		if a.Skill == name {
			return Activation{Skill: name, Folder: a.Folder, AlreadyLoaded: true,
				Note: "skill " + name + " is already loaded in this session: follow its instructions from before"}, nil
		}
	}
	a := Activation{Skill: k.Name, Folder: c.show(k.Dir), Instructions: capBody(k.Body), AllowedTools: k.AllowedTools,
		Files: listFiles(k.Dir)}
	if a.AllowedTools != "" {
		a.Note = "allowed-tools is the skill's suggestion only: every call still passes the approval gate"
	}
	c.loaded = append(c.loaded, a)
	return a, nil
}

// why says why name is not offered, when the set knows it.
func (c *Catalog) why(set Set, name string) string {
	for _, k := range set.Skills {
		if k.Name != name {
			continue
		}
		switch {
		case k.Problem != nil:
			return ": " + k.Problem.String()
		case k.Untrusted:
			return ": the workspace's skills changed since the user trusted them (or were never trusted); the user must trust them again"
		case k.Disabled:
			return ": the user turned it off"
		}
	}
	return ""
}

// Loaded lists the skills the session loaded, in order.
func (c *Catalog) Loaded() []Activation {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Activation(nil), c.loaded...)
}

// Kept is what follows a checkpoint summary: every loaded skill's
// instructions again, so compaction does not summarize them away.
func (c *Catalog) Kept() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.loaded) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("[Skills loaded in this session; their instructions still apply:]")
	for _, a := range c.loaded {
		fmt.Fprintf(&b, "\n\n## Skill %s (folder %s)\n\n%s", a.Skill, a.Folder, a.Instructions)
	}
	return b.String()
}

func (c *Catalog) show(dir string) string {
	if c.Rel != nil {
		return c.Rel(dir)
	}
	return dir
}

// Text is the catalog as the model reads it: each offered skill's name,
// description and folder, up to MaxCatalogChars; the skills past it are
// named.
func (c *Catalog) Text() string {
	text, _ := c.Sent()
	return text
}

// Sent is Text, and the names of the offered skills past MaxCatalogChars
// (named at its end without their descriptions), for the "what the model
// was told" view.
func (c *Catalog) Sent() (string, []string) {
	var b strings.Builder
	var left []string
	for _, k := range c.Set().Offered() {
		entry := fmt.Sprintf("- %s: %s (folder: %s)\n", k.Name, oneLine(k.Description), c.show(k.Dir))
		if len(left) > 0 || b.Len()+len(entry) > MaxCatalogChars {
			left = append(left, k.Name)
			continue
		}
		b.WriteString(entry)
	}
	if len(left) > 0 {
		fmt.Fprintf(&b, "- and %d more whose descriptions did not fit: %s\n", len(left), strings.Join(left, ", "))
	}
	return b.String(), left
}

// Names are the offered skills' names, sorted.
func (c *Catalog) Names() []string {
	var out []string
	for _, k := range c.Set().Offered() {
		out = append(out, k.Name)
	}
	return out
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func capBody(s string) string {
	if len(s) <= MaxBodyChars {
		return s
	}
	cut := MaxBodyChars
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("\n[SKILL.md cut here: it is longer than %d KiB; read the rest with read_file]", MaxBodyChars>>10)
}

// listFiles lists the files of a skill folder (SKILL.md aside), up to
// maxListedFiles, without following links.
func listFiles(dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != dir {
			return filepath.SkipDir
		}
		if d.IsDir() || p == filepath.Join(dir, "SKILL.md") {
			return nil
		}
		if len(out) == maxListedFiles {
			return filepath.SkipAll
		}
		r, _ := filepath.Rel(dir, p)
		out = append(out, filepath.ToSlash(r))
		return nil
	})
	sort.Strings(out)
	return out
}

// UserPrompt is the message the user sends with skill name chosen (the
// composer's /name, exec's --skill): the skill's instructions, the first
// time this session, then text.
func (c *Catalog) UserPrompt(name, text string) (string, Activation, error) {
	a, err := c.Activate(name)
	if err != nil {
		return "", a, err
	}
	if a.AlreadyLoaded {
		return fmt.Sprintf("[The user chose skill %s again; it is loaded already (folder %s).]\n\n%s", name, a.Folder, text), a, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "[The user loaded skill %s for this message. Its folder is %s", name, a.Folder)
	if len(a.Files) > 0 {
		fmt.Fprintf(&b, ", holding %s", strings.Join(a.Files, ", "))
	}
	if a.AllowedTools != "" {
		fmt.Fprintf(&b, ". Its allowed-tools (a suggestion only: every call still passes the approval gate): %s", oneLine(a.AllowedTools))
	}
	fmt.Fprintf(&b, ". Its instructions:]\n\n%s\n\n[End of skill %s.]\n\n%s", a.Instructions, name, text)
	return b.String(), a, nil
}

// Of returns the skills catalog among a session's providers (nil: none).
func Of(providers []tools.Provider) *Catalog {
	for _, p := range providers {
		if c, ok := p.(*Catalog); ok {
			return c
		}
	}
	return nil
}

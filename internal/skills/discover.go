package skills

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gatehouse/internal/trust"
	"gatehouse/internal/workspace"
)

// Sources, lowest precedence first: a later skill of the same name wins.
const (
	// SourceClaude is Claude Code's ~/.claude/skills, read only when the
	// user turned it on (Options.Claude).
	SourceClaude = "claude"
	// SourceUser is Gatehouse's own skills folder, in its config folder.
	SourceUser = "user"
	// SourceAgents is the cross-client ~/.agents/skills.
	SourceAgents = "agents"
	// SourceWorkspaceAgents and SourceWorkspace are the workspace's
	// .agents/skills and .gatehouse/skills, loaded only once the user
	// trusted them (trust.KindSkills).
	SourceWorkspaceAgents = "workspace-agents"
	SourceWorkspace       = "workspace"
)

// MaxFileBytes caps one SKILL.md.
const MaxFileBytes = 256 << 10

// Skill is one skill folder found, offered or not.
type Skill struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Dir is the skill's folder, absolute with links resolved.
	Dir string `json:"dir"`
	// Source is where it was found (Source*); Workspace is set for the
	// workspace's own.
	Source    string `json:"source"`
	Workspace bool   `json:"workspace"`
	// License, Compatibility and AllowedTools are shown, never acted on:
	// allowed-tools grants no approval.
	License       string `json:"license,omitempty"`
	Compatibility string `json:"compatibility,omitempty"`
	AllowedTools  string `json:"allowedTools,omitempty"`
	// Body is SKILL.md past its front matter: what activating returns.
	Body string `json:"-"`
	// Problem keeps the skill from being offered (the reason and line).
	Problem *Note `json:"problem,omitempty"`
	// Warnings are shown; the skill is offered anyway.
	Warnings []Note `json:"warnings,omitempty"`
	// ShadowedBy names the folder of the skill of the same name from a
	// later source that wins over this one; Shadows the folders this one
	// wins over.
	ShadowedBy string   `json:"shadowedBy,omitempty"`
	Shadows    []string `json:"shadows,omitempty"`
	// Untrusted: a workspace skill the user has not trusted as it is now.
	Untrusted bool `json:"untrusted,omitempty"`
	// Disabled: the user turned it off.
	Disabled bool `json:"disabled,omitempty"`
}

// Offered reports whether the model is offered the skill.
func (s Skill) Offered() bool {
	return s.Problem == nil && s.ShadowedBy == "" && !s.Untrusted && !s.Disabled
}

// Options say where to look.
type Options struct {
	// Home is the user's home folder ("" : no ~/.agents or ~/.claude).
	Home string
	// ConfigDir is Gatehouse's config folder ("": no user skills).
	ConfigDir string
	// Workspace is the workspace root ("": none).
	Workspace string
	// Trust is the store of trust decisions (nil: workspace skills are
	// listed, never offered).
	Trust *trust.Store
	// Claude adds ~/.claude/skills as the first, lowest source.
	Claude bool
	// Disabled are the names the user turned off.
	Disabled []string
	// Protected are Gatehouse's own folders (nil: workspace.GatehouseDirs):
	// a skill folder that resolves into one, other than the user's skills
	// folder, is refused.
	Protected []string
}

// UserDir is the skills folder in Gatehouse's config folder.
func UserDir(configDir string) string { return filepath.Join(configDir, "skills") }

// Set is every skill found, in the order of precedence of their sources
// (then by folder name), and the workspace's skills waiting for trust.
type Set struct {
	Skills []Skill `json:"skills"`
	// Waiting is the workspace's skill content to ask the user about
	// (never trusted, or changed since); nil when nothing asks.
	Waiting *trust.Content `json:"waiting,omitempty"`
}

// Offered returns the skills offered to the model, sorted by name.
func (s Set) Offered() []Skill {
	var out []Skill
	for _, k := range s.Skills {
		if k.Offered() {
			out = append(out, k)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Find returns the offered skill named name.
func (s Set) Find(name string) (Skill, bool) {
	for _, k := range s.Skills {
		if k.Name == name && k.Offered() {
			return k, true
		}
	}
	return Skill{}, false
}

// ReadOnlyRoots are the folders of the offered skills from outside the
// workspace: the session's boundary reads them, never writes them.
func (s Set) ReadOnlyRoots() []string {
	var out []string
	for _, k := range s.Offered() {
		if !k.Workspace {
			out = append(out, k.Dir)
		}
	}
	return out
}

// Discover finds the skills of every source, in order of precedence.
func Discover(o Options) Set {
	var set Set
	prot := o.Protected
	if prot == nil {
		prot = workspace.GatehouseDirs()
	}
	userDir := ""
	if o.ConfigDir != "" {
		userDir = UserDir(o.ConfigDir)
	}
	if o.Home != "" && o.Claude {
		set.Skills = append(set.Skills, userSource(SourceClaude, filepath.Join(o.Home, ".claude", "skills"), userDir, prot)...)
	}
	if userDir != "" {
		set.Skills = append(set.Skills, userSource(SourceUser, userDir, userDir, prot)...)
	}
	if o.Home != "" {
		set.Skills = append(set.Skills, userSource(SourceAgents, filepath.Join(o.Home, ".agents", "skills"), userDir, prot)...)
	}
	if o.Workspace != "" {
		ws, waiting := workspaceSkills(o.Workspace, o.Trust)
		set.Skills = append(set.Skills, ws...)
		set.Waiting = waiting
	}
	for i := range set.Skills {
		for _, d := range o.Disabled {
			if set.Skills[i].Name == d {
				set.Skills[i].Disabled = true
			}
		}
	}
	shadow(set.Skills)
	return set
}

// shadow marks, for each name, every skill a later one of that name wins
// over. Only skills that could be offered take part.
func shadow(all []Skill) {
	winner := map[string]int{}
	for i, k := range all {
		if k.Problem != nil || k.Untrusted || k.Disabled {
			continue
		}
		if j, ok := winner[k.Name]; ok {
			all[j].ShadowedBy = k.Dir
			all[i].Shadows = append(all[i].Shadows, all[j].Dir)
		}
		winner[k.Name] = i
	}
}

// userSource reads the skill folders of dir, a folder of the user's:
// links are followed (a skill kept elsewhere and linked in works), but a
// skill that resolves into Gatehouse's own folders, other than its skills
// folder, is refused.
func userSource(source, dir, userDir string, protected []string) []Skill {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	realUser, _ := filepath.EvalSymlinks(userDir)
	var out []Skill
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			continue
		}
		if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
			continue
		}
		k := Skill{Name: e.Name(), Dir: real, Source: source}
		data, err := readCapped(filepath.Join(real, "SKILL.md"))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue // not a skill folder
		case err != nil:
			k.Problem = &Note{Message: err.Error()}
		case intoProtected(real, realUser, protected):
			k.Problem = &Note{Message: fmt.Sprintf("the folder resolves to %s, inside Gatehouse's own folders: not read", real)}
		default:
			fill(&k, e.Name(), data)
		}
		out = append(out, k)
	}
	return out
}

func intoProtected(real, realUser string, protected []string) bool {
	if realUser != "" && within(realUser, real) {
		return false
	}
	for _, p := range protected {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			p = r
		}
		if within(p, real) {
			return true
		}
	}
	return false
}

// within reports whether p is base or lies below it.
func within(base, p string) bool {
	rel, err := filepath.Rel(base, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func readCapped(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("SKILL.md is not a regular file")
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxFileBytes {
		return nil, fmt.Errorf("SKILL.md is larger than %d KiB: not read", MaxFileBytes>>10)
	}
	return b, nil
}

func fill(k *Skill, folder string, data []byte) {
	p := parse(folder, data)
	k.Problem, k.Warnings = p.Problem, p.Warnings
	if p.Problem != nil {
		return
	}
	k.Name, k.Description, k.Body = p.Name, p.Description, p.Body
	k.License, k.Compatibility, k.AllowedTools = p.License, p.Compatibility, p.AllowedTools
}

// workspaceSkills reads the workspace's skill folders from the very bytes
// trust hashes: offered when trusted as they are now, listed as untrusted
// otherwise, with the content to ask about.
func workspaceSkills(root string, store *trust.Store) ([]Skill, *trust.Content) {
	c, err := trust.Read(root, trust.KindSkills)
	if err != nil || c.Empty() {
		return nil, nil
	}
	trusted := false
	if store != nil {
		trusted, _ = store.Trusted(root, trust.KindSkills, c)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		realRoot = root
	}
	var out []Skill
	for _, base := range trust.Paths[trust.KindSkills] {
		source := SourceWorkspace
		if strings.HasPrefix(base, ".agents/") {
			source = SourceWorkspaceAgents
		}
		seen := map[string]bool{}
		for _, f := range c.Files {
			rest, ok := strings.CutPrefix(f, base+"/")
			if !ok {
				continue
			}
			folder, file, ok := strings.Cut(rest, "/")
			if !ok || file != "SKILL.md" || seen[folder] || strings.HasPrefix(folder, ".") {
				continue
			}
			seen[folder] = true
			k := Skill{Name: folder, Dir: filepath.Join(realRoot, filepath.FromSlash(base), folder), Source: source,
				Workspace: true, Untrusted: !trusted}
			if data := c.Data[f]; len(data) > MaxFileBytes {
				k.Problem = &Note{Message: fmt.Sprintf("SKILL.md is larger than %d KiB: not read", MaxFileBytes>>10)}
			} else {
				fill(&k, folder, data)
			}
			out = append(out, k)
		}
	}
	if trusted {
		return out, nil
	}
	return out, &c
}

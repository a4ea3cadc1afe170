// Package trust remembers which workspace folders the user trusts to start
// programs or change agents: a workspace's .gatehouse/mcp.json (MCP servers
// to start) and .gatehouse/agents/ (agent definitions) load only once the
// user said yes in a dialog that showed what they hold, and so do its
// own slash commands (.gatehouse/commands/), its policy and git settings. Trust is kept per
// folder, per kind of content and per content hash, in a file only the user
// can read in Gatehouse's config folder; when the content changes its hash
// does too, and the user is asked again.
package trust

import (
	"encoding/json"
	"errors"
	"fmt"
	"gatehouse/internal/atomicfile"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"gatehouse/internal/workspace"
)

// Kinds of workspace content that need trust, with the workspace-relative
// paths each covers.
const (
	KindMCP    = "mcp"
	KindAgents = "agents"
	KindPolicy = "policy"
	// KindGit is a repository's git settings and hooks, and what its
	// .git/config pulls in: every file it includes (include.path,
	// includeIf, whatever the condition; a missing one recorded as absent)
	// and the folder core.hooksPath names. Until they are trusted, every
	// git the app runs is in gitcmd's safe mode.
	KindGit = "git"
	// KindCommands is a workspace's own slash commands: their prompts
	// steer the model as a message the user sends would.
	KindCommands = "commands"
	// KindSkills is a workspace's own Agent Skills: their instructions
	// steer the model and their scripts are there to be run. Hashed over
	// every file of every skill folder, so any change asks again.
	KindSkills = "skills"
	// KindHooks is a workspace's own hooks (.gatehouse/hooks.json), its
	// agent definitions that carry hooks, and the scripts their commands
	// name inside the workspace (readHooksReach): hashed over those bytes,
	// so a changed definition or script asks again.
	KindHooks = "hooks"
)

// AgentsDir is where a workspace keeps its agent definitions
// (KindAgents; those with hooks count for KindHooks too).
const AgentsDir = ".gatehouse/agents"

// Paths lists the workspace-relative files or folders of each kind.
var Paths = map[string][]string{
	KindMCP:      {".gatehouse/mcp.json"},
	KindAgents:   {AgentsDir},
	KindPolicy:   {".gatehouse/policy.toml"},
	KindGit:      {".git/config", ".git/hooks"}, // and what the config pulls in (readGitReach)
	KindCommands: {".gatehouse/commands"},
	KindSkills:   {".agents/skills", ".gatehouse/skills"},
	KindHooks:    {HooksFile}, // and the scripts it names (readHooksReach)
}

// File is the store's file name in the config folder.
const File = "trusted-folders.json"

// maxFileBytes bounds one file read (agent definitions and server lists
// are small; a larger file is refused, not loaded).
const maxFileBytes = 4 << 20

// Store is the user's trust decisions. It is safe for concurrent use; each
// call reads the file, so two app windows see each other's decisions, and
// every change is made under a lock file (flock) shared by every process,
// so two processes trusting at once both keep their decision.
type Store struct {
	path string
	mu   sync.Mutex
}

var (
	storesMu sync.Mutex
	stores   = map[string]*Store{}
)

// NewStore returns the process's store of decisions in dir/File (dir:
// Gatehouse's config folder): one per file, whoever asks for it.
func NewStore(dir string) *Store {
	p := filepath.Join(dir, File)
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	storesMu.Lock()
	defer storesMu.Unlock()
	if s := stores[p]; s != nil {
		return s
	}
	s := &Store{path: p}
	stores[p] = s
	return s
}

type entry struct {
	Hash string    `json:"hash"`
	At   time.Time `json:"at"`
}

type fileShape struct {
	Folders map[string]map[string]entry `json:"folders"`
}

// key is the folder's absolute path with symlinks resolved; for a linked
// git worktree (a worktree session's), its repository's main worktree, so
// a worktree session inherits the trust of its repository.
func key(folder string) (string, error) {
	abs, err := filepath.Abs(folder)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	return mainWorktree(abs), nil
}

// mainWorktree maps dir, when it is a linked git worktree, to the main
// worktree of its repository, read from the files git keeps (dir/.git
// says "gitdir: <main>/.git/worktrees/<name>", whose gitdir file points
// back at dir/.git); no git runs. Anything else is dir itself.
func mainWorktree(dir string) string {
	b, _, err := workspace.ReadNoLinks(dir, ".git", 4096)
	if err != nil || !strings.HasPrefix(string(b), "gitdir: ") {
		return dir
	}
	gitdir := strings.TrimSpace(strings.TrimPrefix(string(b), "gitdir: "))
	if !filepath.IsAbs(gitdir) {
		gitdir = filepath.Join(dir, gitdir)
	}
	wts := filepath.Dir(filepath.Clean(gitdir))
	if filepath.Base(wts) != "worktrees" || filepath.Base(filepath.Dir(wts)) != ".git" {
		return dir
	}
	back, err := os.ReadFile(filepath.Join(gitdir, "gitdir"))
	if err != nil {
		return dir
	}
	want := filepath.Join(dir, ".git")
	got := filepath.Clean(strings.TrimSpace(string(back)))
	if real, err := filepath.EvalSymlinks(got); err == nil {
		got = real
	}
	if got != want {
		return dir
	}
	main := filepath.Dir(filepath.Dir(wts))
	if real, err := filepath.EvalSymlinks(main); err == nil {
		main = real
	}
	return main
}

func (s *Store) load() (fileShape, error) {
	out := fileShape{Folders: map[string]map[string]entry{}}
	b, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return out, err
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return fileShape{Folders: map[string]map[string]entry{}}, fmt.Errorf("trust: %s: %w", s.path, err)
	}
	if out.Folders == nil {
		out.Folders = map[string]map[string]entry{}
	}
	return out, nil
}

// Trusted reports whether the user trusted exactly content c of kind in
// folder. Empty content needs no trust and reports false (nothing to load).
func (s *Store) Trusted(folder, kind string, c Content) (bool, error) {
	if c.Empty() {
		return false, nil
	}
	k, err := key(folder)
	if err != nil {
		return false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.load()
	if err != nil {
		return false, err
	}
	e, ok := f.Folders[k][kind]
	return ok && e.Hash == c.Hash, nil
}

// Trust records that the user trusts content c of kind in folder; it
// replaces an earlier decision for older content.
func (s *Store) Trust(folder, kind string, c Content) error {
	if c.Empty() {
		return errors.New("trust: nothing to trust")
	}
	return s.update(folder, func(m map[string]entry) { m[kind] = entry{Hash: c.Hash, At: time.Now().UTC()} })
}

// Revoke forgets the decision for kind in folder.
func (s *Store) Revoke(folder, kind string) error {
	return s.update(folder, func(m map[string]entry) { delete(m, kind) })
}

// RevokeFolder forgets every decision for folder: nothing of it loads
// until the user trusts it again.
func (s *Store) RevokeFolder(folder string) error {
	return s.update(folder, func(m map[string]entry) { clear(m) })
}

func (s *Store) update(folder string, change func(map[string]entry)) error {
	k, err := key(folder)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return err
	}
	unlock, err := lockFile(s.path + ".lock")
	if err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	defer unlock()
	f, err := s.load()
	if err != nil {
		return err
	}
	m := f.Folders[k]
	if m == nil {
		m = map[string]entry{}
	}
	change(m)
	if len(m) == 0 {
		delete(f.Folders, k)
	} else {
		f.Folders[k] = m
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	return WritePrivate(s.path, append(b, '\n'))
}

// FolderTrust is one folder's decisions, as Settings lists them.
type FolderTrust struct {
	Folder string       `json:"folder"`
	Kinds  []KindTrusts `json:"kinds"`
}

// KindTrusts is the decision for one kind of content of a folder.
type KindTrusts struct {
	Kind string    `json:"kind"`
	At   time.Time `json:"at"`
}

// List returns every folder with a decision and what it trusts, sorted.
func (s *Store) List() ([]FolderTrust, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.load()
	if err != nil {
		return nil, err
	}
	out := []FolderTrust{}
	for _, k := range slices.Sorted(maps.Keys(f.Folders)) {
		ft := FolderTrust{Folder: k}
		for _, kind := range slices.Sorted(maps.Keys(f.Folders[k])) {
			ft.Kinds = append(ft.Kinds, KindTrusts{Kind: kind, At: f.Folders[k][kind].At})
		}
		out = append(out, ft)
	}
	return out, nil
}

// Folders lists the folders with any decision, sorted.
func (s *Store) Folders() ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.load()
	if err != nil {
		return nil, err
	}
	var out []string
	for k := range f.Folders {
		out = append(out, k)
	}
	slices.Sort(out)
	return out, nil
}

// WritePrivate writes data to path atomically, readable only by the user
// (0600), in a folder only the user can enter when it has to create it,
// synced to disk (atomicfile: the file and its folder) before it returns. Files that hold secrets or decisions use it.
func WritePrivate(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return atomicfile.Write(path, data, 0o600)
}

// Path is the file the decisions are kept in.
func (s *Store) Path() string { return s.path }

// Package trust remembers which workspace folders the user trusts to start
// programs or change agents: a workspace's .gatehouse/mcp.json (MCP servers
// to start) and .gatehouse/agents/ (agent definitions) load only once the
// user said yes in a dialog that showed what they hold. Trust is kept per
// folder, per kind of content and per content hash, in a file only the user
// can read in Gatehouse's config folder; when the content changes its hash
// does too, and the user is asked again.
package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"gatehouse/internal/atomicfile"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"time"
)

// Kinds of workspace content that need trust, with the workspace-relative
// paths each covers.
const (
	KindMCP    = "mcp"
	KindAgents = "agents"
)

// Paths lists the workspace-relative files or folders of each kind.
var Paths = map[string][]string{
	KindMCP:    {".gatehouse/mcp.json"},
	KindAgents: {".gatehouse/agents"},
}

// File is the store's file name in the config folder.
const File = "trusted-folders.json"

// maxFileBytes bounds one file read for hashing (agent definitions and
// server lists are small; a larger file is hashed by its first bytes and
// its size, so a change still shows).
const maxFileBytes = 4 << 20

// Store is the user's trust decisions. It is safe for concurrent use; each
// call reads the file, so two app windows see each other's decisions.
type Store struct {
	path string
	mu   sync.Mutex
}

// NewStore keeps decisions in dir/File (dir: Gatehouse's config folder).
func NewStore(dir string) *Store { return &Store{path: filepath.Join(dir, File)} }

type entry struct {
	Hash string    `json:"hash"`
	At   time.Time `json:"at"`
}

type fileShape struct {
	Folders map[string]map[string]entry `json:"folders"`
}

// Content is what a kind of content in a folder holds now.
type Content struct {
	// Hash covers every file's path and bytes; "" when there is nothing.
	Hash string
	// Files are the workspace-relative paths found, sorted.
	Files []string
}

// Empty reports that the folder has no content of this kind: nothing to
// trust, nothing to load.
func (c Content) Empty() bool { return len(c.Files) == 0 }

// Read hashes the content of kind in folder.
func Read(folder, kind string) (Content, error) {
	rels, ok := Paths[kind]
	if !ok {
		return Content{}, fmt.Errorf("trust: unknown kind %q", kind)
	}
	h := sha256.New()
	var files []string
	for _, rel := range rels {
		root := filepath.Join(folder, filepath.FromSlash(rel))
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return err
			}
			if !d.Type().IsRegular() {
				return nil
			}
			r, _ := filepath.Rel(folder, p)
			files = append(files, filepath.ToSlash(r))
			return nil
		})
		if err != nil {
			return Content{}, err
		}
	}
	sort.Strings(files)
	for _, f := range files {
		b, err := readCapped(filepath.Join(folder, filepath.FromSlash(f)))
		if err != nil {
			return Content{}, err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", f, len(b))
		h.Write(b)
	}
	if len(files) == 0 {
		return Content{}, nil
	}
	return Content{Hash: hex.EncodeToString(h.Sum(nil)), Files: files}, nil
}

func readCapped(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxFileBytes))
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err == nil && fi.Size() > int64(len(b)) {
		b = append(b, fmt.Sprintf("\x00size=%d", fi.Size())...)
	}
	return b, nil
}

// key is the folder's absolute path with symlinks resolved.
func key(folder string) (string, error) {
	abs, err := filepath.Abs(folder)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	return abs, nil
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

func (s *Store) update(folder string, change func(map[string]entry)) error {
	k, err := key(folder)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
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

// WritePrivate writes data to path atomically and durably (atomicfile),
// readable only by the user (0600), in a folder only the user can enter
// when it has to create it. Files that hold secrets or decisions use it.
func WritePrivate(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return atomicfile.Write(path, data, 0o600)
}

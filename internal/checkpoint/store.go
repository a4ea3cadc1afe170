// Package checkpoint keeps the prior content of every file a turn changes,
// so that a turn, a file or a hunk can be taken back after the fact.
//
// # Storage
//
// A Store lives in the user's data folder (never in a workspace): blobs
// named by the SHA-256 of their bytes, so equal contents are kept once, and
// one append-only change log per session. The blobs are bounded (Limit,
// default 1 GiB): after a write over the bound, whole sessions are pruned,
// oldest first (never the one writing), and blobs no log names any more are
// removed. A content that alone would not fit is not kept; the change that
// needed it is recorded as not restorable, and the approval dialog says so
// before the change is approved (Recorder.Mark).
//
// # What is recorded
//
// Each change is one line of the session's log: the turn (or undo) it
// belongs to, the path, who made it (a file tool, a command, an undo), and
// the file's version before and after (absent, or content hash and mode).
// A unit's changes are folded per path: the first before, the last after.
//
// # Concurrency
//
// A Store and a Recorder are safe for concurrent use.
package checkpoint

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// DefaultLimit bounds the bytes a Store keeps.
const DefaultLimit int64 = 1 << 30

// ErrTooLarge is returned by Put for a content that alone exceeds the bound.
var ErrTooLarge = errors.New("checkpoint: the content is larger than the store keeps")

// Store is the content-addressed store of one data folder.
type Store struct {
	dir   string
	limit int64

	mu     sync.Mutex
	pinned map[string]int // blobs put and not yet named by a log line
	size   int64          // bytes of blobs kept, once sized (-1: not yet)

	pruner pruner // prune.go
}

// Dir is the store's folder in a data folder (session.DefaultDir): the
// one place every host and `gatehouse undo` open it.
func Dir(dataDir string) string { return filepath.Join(dataDir, "checkpoints") }

// Open opens (creating) the store in folder dir with the bound limit
// (<= 0: DefaultLimit).
func Open(dir string, limit int64) (*Store, error) {
	if limit <= 0 {
		limit = DefaultLimit
	}
	for _, d := range []string{filepath.Join(dir, "blobs"), filepath.Join(dir, "sessions")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, fmt.Errorf("checkpoint store: %w", err)
		}
	}
	return &Store{dir: dir, limit: limit, pinned: map[string]int{}, size: -1}, nil
}

// Limit is the bound on the bytes kept.
func (s *Store) Limit() int64 { return s.limit }

// Fits says whether a content of size bytes can be kept at all.
func (s *Store) Fits(size int64) bool { return size <= s.limit }

// Hash is the name of b in the store.
func Hash(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func (s *Store) blobPath(hash string) string {
	return filepath.Join(s.dir, "blobs", hash[:2], hash)
}

// Put keeps b and returns its hash; a content already kept is not written
// again. A content over the bound is refused with ErrTooLarge. The blob is
// pinned (never pruned) until Release: a caller releases it once a log line
// names it.
func (s *Store) Put(b []byte) (string, error) {
	if !s.Fits(int64(len(b))) {
		return "", ErrTooLarge
	}
	hash := Hash(b)
	p := s.blobPath(hash)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pinned[hash]++
	s.pruner.touch(hash)
	if _, err := os.Stat(p); err == nil {
		now := nowFunc()
		_ = os.Chtimes(p, now, now)
		return hash, nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".put-*")
	if err != nil {
		return "", err
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), p)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return "", fmt.Errorf("checkpoint store: %w", err)
	}
	if s.size >= 0 {
		s.size += int64(len(b))
	}
	return hash, nil
}

// Release unpins hashes put earlier.
func (s *Store) Release(hashes ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, h := range hashes {
		s.pruner.touch(h) // named by a log line a running prune may have read before
		if s.pinned[h]--; s.pinned[h] <= 0 {
			delete(s.pinned, h)
		}
	}
}

// Get returns the content named hash.
func (s *Store) Get(hash string) ([]byte, error) {
	if len(hash) < 3 || strings.ContainsAny(hash, `/\.`) {
		return nil, fmt.Errorf("checkpoint store: bad hash %q", hash)
	}
	b, err := os.ReadFile(s.blobPath(hash))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("checkpoint store: the content %s was pruned", hash[:12])
	}
	return b, err
}

// Has says whether the content named hash is kept.
func (s *Store) Has(hash string) bool {
	if hash == "" {
		return false
	}
	_, err := os.Stat(s.blobPath(hash))
	return err == nil
}

// Size is the total of the blobs kept.
func (s *Store) Size() int64 {
	s.mu.Lock()
	known := s.size
	s.mu.Unlock()
	if known >= 0 {
		return known
	}
	return s.sized()
}

// sized is the total of the blobs, walked once (without the lock: Put goes
// on meanwhile) and then kept up to date by Put and collect.
func (s *Store) sized() int64 {
	n := s.walkSize()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.size < 0 {
		s.size = n
	}
	return s.size
}

func (s *Store) walkSize() int64 {
	var n int64
	_ = filepath.WalkDir(filepath.Join(s.dir, "blobs"), func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

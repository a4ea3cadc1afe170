package images

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Store is a folder of images named by their ID. Files are 0600 in a 0700
// folder, like the session logs that name them. Safe for concurrent use:
// a file is written under a temporary name and renamed, so a reader sees
// the whole image or none, and two writers of one ID write the same bytes.
type Store struct {
	dir string
}

// NewStore returns a Store in dir; nothing is created before the first Put.
func NewStore(dir string) *Store { return &Store{dir: dir} }

// Dir is the store's folder.
func (s *Store) Dir() string { return s.dir }

// Put saves im.Data under im.ID (computed when empty) and returns the ID.
func (s *Store) Put(im Image) (string, error) {
	id := im.ID
	if id == "" {
		id = ID(im.Data)
	}
	path := filepath.Join(s.dir, id)
	if _, err := os.Stat(path); err == nil {
		return id, nil
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return "", fmt.Errorf("saving the image: %w", err)
	}
	f, err := os.CreateTemp(s.dir, ".tmp-*")
	if err != nil {
		return "", fmt.Errorf("saving the image: %w", err)
	}
	_, werr := f.Write(im.Data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("saving the image: %w", err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("saving the image: %w", err)
	}
	return id, nil
}

// Get reads the image saved under id and its MIME type. An id that is not
// a content address is refused before any file is opened.
func (s *Store) Get(id string) (data []byte, mime string, err error) {
	if !ValidID(id) {
		return nil, "", fmt.Errorf("image id %q is not valid", id)
	}
	data, err = os.ReadFile(filepath.Join(s.dir, id))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, "", fmt.Errorf("the image %.12s is no longer in the data folder", id)
		}
		return nil, "", err
	}
	return data, Sniff(data), nil
}

// ValidID reports whether id is a hex SHA-256, as ID returns.
func ValidID(id string) bool {
	if len(id) != 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

package checkpoint

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"gatehouse/internal/workspace"
)

// read returns the version of the file at abs and its bytes. A path that is
// not a regular file (a folder, a link) is reported as an error.
func read(abs string) (Version, []byte, error) {
	fi, err := os.Lstat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return Version{}, nil, nil
	}
	if err != nil {
		return Version{}, nil, err
	}
	if !fi.Mode().IsRegular() {
		return Version{}, nil, fmt.Errorf("%s is not a regular file", filepath.Base(abs))
	}
	// Opened as a regular file only: a FIFO swapped in since the look is
	// refused, not waited on.
	f, _, err := workspace.OpenRegular(abs)
	if err != nil {
		return Version{}, nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return Version{}, nil, err
	}
	return Version{Exists: true, Mode: fi.Mode().Perm(), Size: int64(len(b))}, b, nil
}

// keep reads abs and keeps its content in the store. A content too large
// for the store gives a version marked Lost and the note why. The caller
// releases the returned hash once a log line names it.
func (s *Store) keep(abs string) (v Version, note string, err error) {
	v, b, err := read(abs)
	if err != nil || !v.Exists {
		return v, "", err
	}
	h, err := s.Put(b)
	if errors.Is(err, ErrTooLarge) {
		v.Hash, v.Lost = Hash(b), true
		return v, NoteTooLarge, nil
	}
	if err != nil {
		return v, "", err
	}
	v.Hash = h
	return v, "", nil
}

// current is the version of abs now, its content hashed but not kept.
func current(abs string) (Version, []byte, error) {
	v, b, err := read(abs)
	if err == nil && v.Exists {
		v.Hash = Hash(b)
	}
	return v, b, err
}

// write brings abs to version v (its content from the store): the file is
// replaced atomically with v's bytes and mode, or removed when v is absent.
func (s *Store) write(abs string, v Version) error {
	if !v.Exists {
		err := os.Remove(abs)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	b, err := s.Get(v.Hash)
	if err != nil {
		return err
	}
	return writeBytes(abs, b, v.Mode)
}

func writeBytes(abs string, b []byte, mode fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(abs), ".gatehouse-undo-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), mode.Perm())
	}
	if err == nil {
		err = os.Rename(tmp.Name(), abs)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
	}
	return err
}

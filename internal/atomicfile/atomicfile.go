// Package atomicfile replaces a file's content all at once: the one way
// Gatehouse writes its own settings, keys and decisions.
//
// Durability: Write writes a temporary file beside path, syncs it, renames
// it over path and syncs the folder. After Write returns, a crash leaves the
// new content; a crash during Write leaves the old content or the new one,
// never a mix or an empty file (a stray temporary file may remain, named
// .<base>.tmp-*).
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write replaces path's content with data, with mode perm (the folder must
// exist).
func Write(path string, data []byte, perm os.FileMode) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err = f.Chmod(perm); err != nil {
		return err
	}
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp, path); err != nil {
		return err
	}
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

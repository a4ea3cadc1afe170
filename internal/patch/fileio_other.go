//go:build !unix

package patch

import "os"

func openRead(name string) (*os.File, error) { return os.Open(name) }

func openCreate(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
}

func rename(oldpath, newpath string) error { return os.Rename(oldpath, newpath) }

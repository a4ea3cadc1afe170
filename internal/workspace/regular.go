package workspace

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// NotRegularError is a path that is not a regular file where only one will
// do: a FIFO (reading it waits for a writer), a socket, a device (/dev/zero
// never ends), a folder, or a symbolic link where links are refused.
type NotRegularError struct {
	Path string
	// Kind is what it is, in words: "a FIFO (named pipe)", "a device"...
	Kind string
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file: only regular files are read", e.Path, e.Kind)
}

// ErrorCode is CodeNotRegular.
func (e *NotRegularError) ErrorCode() string { return CodeNotRegular }

// ErrorPath returns the path.
func (e *NotRegularError) ErrorPath() string { return e.Path }

// Kind says in words what kind of file m is ("" for a regular file).
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return ""
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// OpenRegular opens path for reading only when it is a regular file: the
// open neither follows a symlink as the last component nor waits on a FIFO
// (O_NOFOLLOW|O_NONBLOCK), and what was opened is checked with fstat, so a
// swap between a look and the open cannot make it read a device or a pipe.
func OpenRegular(path string) (*os.File, fs.FileInfo, error) {
	f, err := openNoFollow(path)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if k := Kind(fi.Mode()); k != "" {
		f.Close()
		return nil, fi, &NotRegularError{Path: path, Kind: k}
	}
	return f, fi, nil
}

// ReadRegular reads up to max bytes of the regular file at path (see
// OpenRegular); truncated reports that the file holds more.
func ReadRegular(path string, max int64) (data []byte, truncated bool, err error) {
	f, _, err := OpenRegular(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	data, err = io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, false, err
	}
	if int64(len(data)) > max {
		return data[:max], true, nil
	}
	return data, false, nil
}

// ReadInside reads the file rel of the folder root as the app reads what a
// workspace supplies (AGENTS.md, ignore files): rel is resolved as Resolve
// does (symlinks followed inside root, never out of it, protected places
// refused), then read with ReadRegular. A missing file is fs.ErrNotExist.
func ReadInside(root, rel string, max int64) ([]byte, bool, error) {
	w, err := New(root, Options{ProtectedDirs: GatehouseDirs()})
	if err != nil {
		return nil, false, err
	}
	abs, err := w.Resolve(rel, Read)
	if err != nil {
		return nil, false, err
	}
	return ReadRegular(abs, max)
}

// ReadNoLinks reads rel below root refusing any symbolic link on the way
// (root's own components aside): what a user trusts by content must be the
// bytes in the workspace, not a link whose target can change later. Every
// error names the path relative to root; a missing file is fs.ErrNotExist.
func ReadNoLinks(root, rel string, max int64) ([]byte, bool, error) {
	abs, err := NoLinks(root, rel)
	if err != nil {
		return nil, false, err
	}
	b, trunc, err := ReadRegular(abs, max)
	var nr *NotRegularError
	if errors.As(err, &nr) {
		nr.Path = filepath.ToSlash(rel)
	}
	return b, trunc, err
}

// NoLinks returns root joined with rel after checking that no component
// below root is a symbolic link and rel does not leave root; the last
// component need not exist.
func NoLinks(root, rel string) (string, error) {
	cur := root
	parts := splitPath(rel)
	for i, p := range parts {
		if p == ".." || p == "." {
			return "", &Error{Path: rel, Code: CodeInvalid, Reason: "the path must stay below its folder"}
		}
		cur = filepath.Join(cur, p)
		fi, err := os.Lstat(cur)
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return "", &NotRegularError{Path: filepath.ToSlash(filepath.Join(parts[:i+1]...)), Kind: "a symbolic link"}
		}
	}
	return cur, nil
}

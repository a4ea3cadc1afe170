//go:build unix

package workspace

import (
	"io/fs"
	"os"
	"syscall"
)

// openNoFollow opens path read-only without following a symlink as its
// last component and without waiting on a FIFO.
func openNoFollow(path string) (*os.File, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err == syscall.ELOOP {
		return nil, &NotRegularError{Path: path, Kind: "a symbolic link"}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}

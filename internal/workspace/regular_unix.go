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
	fd, err := openNoFollowFD(path)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), path), nil
}

// openNoFollowFD is openNoFollow giving the descriptor itself.
func openNoFollowFD(path string) (int, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err == syscall.ELOOP {
		return -1, &NotRegularError{Path: path, Kind: "a symbolic link"}
	}
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return fd, nil
}

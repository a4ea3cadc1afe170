//go:build unix

package patch

import (
	"io/fs"
	"os"
	"syscall"
)

// openRead and openCreate open through the system call and os.NewFile, not
// os.OpenFile: a regular file gains nothing from the runtime poller, and
// registering with it costs four system calls per file.
// openRead does not wait on a FIFO (O_NONBLOCK): readFile refuses what is
// not a regular file after one fstat.
func openRead(name string) (*os.File, error) {
	return open(name, syscall.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// openCreate creates name, which must not exist, for writing with mode 0600.
func openCreate(name string) (*os.File, error) {
	return open(name, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_EXCL, 0o600)
}

func open(name string, flag int, perm uint32) (*os.File, error) {
	for {
		fd, err := syscall.Open(name, flag|syscall.O_CLOEXEC, perm)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return os.NewFile(uintptr(fd), name), nil
	}
}

// rename is rename(2): os.Rename first looks whether newpath is a folder,
// which a planned file is not (and rename(2) refuses a file over a folder).
func rename(oldpath, newpath string) error {
	for {
		err := syscall.Rename(oldpath, newpath)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: err}
		}
		return nil
	}
}

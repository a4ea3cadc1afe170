//go:build unix

package workspace

import (
	"io/fs"
	"syscall"
)

// ReadRegularInto reads the regular file at path into buf (grown when too
// small; the slice returned holds the content and can be passed back for
// the next file), the way OpenRegular opens it: a symlink as its last
// component, a FIFO or a device is refused with a *NotRegularError. A file
// larger than max is not read (tooLarge). head, when not nil, sees the
// file's first block before the rest is read, and a true from it ends the
// read (stopped). It is OpenRegular and a read without an *os.File: the
// few system calls a search over thousands of files makes per file.
func ReadRegularInto(path string, buf []byte, max int64, head func([]byte) bool) (data []byte, tooLarge, stopped bool, err error) {
	fd, err := openNoFollowFD(path)
	if err != nil {
		return buf[:0], false, false, err
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return buf[:0], false, false, &fs.PathError{Op: "fstat", Path: path, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return buf[:0], false, false, &NotRegularError{Path: path, Kind: "not a regular file"}
	}
	size := st.Size
	if size > max {
		return buf[:0], true, false, nil
	}
	if int64(cap(buf)) < size {
		buf = make([]byte, 0, size+size/4)
	}
	data = buf[:0]
	// The first block alone, then the rest (the file as fstat saw it).
	const block = 64 << 10
	for int64(len(data)) < size {
		end := size
		if len(data) == 0 && head != nil {
			end = min(size, block)
		}
		n, err := syscall.Read(fd, data[len(data):end])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return data, false, false, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if n <= 0 {
			break // the file shrank
		}
		first := len(data) == 0
		data = data[:len(data)+n]
		if first && head != nil && head(data) {
			return data, false, true, nil
		}
	}
	return data, false, false, nil
}

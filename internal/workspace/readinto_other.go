//go:build !unix

package workspace

import "io"

// ReadRegularInto reads the regular file at path into buf: see the unix
// version. Here it goes through OpenRegular.
func ReadRegularInto(path string, buf []byte, max int64, head func([]byte) bool) (data []byte, tooLarge, stopped bool, err error) {
	f, fi, err := OpenRegular(path)
	if err != nil {
		return buf[:0], false, false, err
	}
	defer f.Close()
	size := fi.Size()
	if size > max {
		return buf[:0], true, false, nil
	}
	if int64(cap(buf)) < size {
		buf = make([]byte, 0, size+size/4)
	}
	data = buf[:size]
	n, err := io.ReadFull(f, data)
	data = data[:n]
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return data, false, false, err
	}
	if head != nil && head(data) {
		return data, false, true, nil
	}
	return data, false, false, nil
}

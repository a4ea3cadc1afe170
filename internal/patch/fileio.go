package patch

import (
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"unsafe"
)

// readFile reads the file at abs through one open: its info (nil when it
// does not exist) and its content. Folders, FIFOs, sockets and devices
// return their info and no content (reading a FIFO would wait for a writer,
// a device may never end).
func readFile(abs string) (fs.FileInfo, []byte, error) {
	f, err := openRead(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return fi, nil, err
	}
	// One byte over the size: a read that does not fill the buffer of a
	// regular file has reached its end, so no extra read to see EOF.
	b := make([]byte, 0, fi.Size()+1)
	for {
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF || err == nil && fi.Mode().IsRegular() && len(b) < cap(b) {
			return fi, b, nil
		}
		if err != nil {
			return nil, nil, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// bytesString returns b as a string without copying; b must not change
// afterwards.
func bytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// createTemp creates a new file named like ".gatehouse-*.tmp" in dir, for
// writing only, with mode 0600 (as os.CreateTemp).
func createTemp(dir string) (*os.File, error) {
	for try := 0; ; try++ {
		name := filepath.Join(dir, ".gatehouse-"+strconv.FormatUint(uint64(rand.Uint32()), 10)+".tmp")
		f, err := openCreate(name)
		if errors.Is(err, fs.ErrExist) && try < 10000 {
			continue
		}
		return f, err
	}
}

// stringBytes is the reverse of bytesString: s's bytes, not to be modified.
func stringBytes(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

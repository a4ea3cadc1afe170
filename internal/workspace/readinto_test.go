//go:build unix

package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadRegularInto: a regular file is read whole into the buffer given,
// a symlink as the last component and a FIFO are refused without waiting,
// a file over the cap is not read, and head sees the first block and can
// end the read there.
func TestReadRegularInto(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.txt")
	big := strings.Repeat("x", 200<<10)
	os.WriteFile(file, []byte("hello\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "big.txt"), []byte(big), 0o644)
	os.Symlink(file, filepath.Join(dir, "link"))
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 0, 64)
	data, tooLarge, stopped, err := ReadRegularInto(file, buf, 1<<20, nil)
	if err != nil || tooLarge || stopped || string(data) != "hello\n" || &data[:1][0] != &buf[:1][0] {
		t.Errorf("regular file: %q %v %v %v (buffer reused: %v)", data, tooLarge, stopped, err, &data[:1][0] == &buf[:1][0])
	}
	data, _, _, err = ReadRegularInto(filepath.Join(dir, "big.txt"), data, 1<<20, func([]byte) bool { return false })
	if err != nil || string(data) != big {
		t.Errorf("large file: %d bytes, %v", len(data), err)
	}
	var nr *NotRegularError
	for _, name := range []string{"link", "fifo"} {
		if _, _, _, err := ReadRegularInto(filepath.Join(dir, name), nil, 1<<20, nil); !errors.As(err, &nr) {
			t.Errorf("%s: %v, want a NotRegularError", name, err)
		}
	}
	if _, tooLarge, _, err := ReadRegularInto(file, nil, 3, nil); !tooLarge || err != nil {
		t.Errorf("over the cap: tooLarge %v, %v", tooLarge, err)
	}
	var seen int
	data, _, stopped, err = ReadRegularInto(filepath.Join(dir, "big.txt"), nil, 1<<20, func(h []byte) bool { seen = len(h); return true })
	if !stopped || err != nil || seen != 64<<10 || len(data) != seen {
		t.Errorf("head: stopped %v after %d bytes (saw %d), %v", stopped, len(data), seen, err)
	}
}

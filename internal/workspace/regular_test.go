//go:build unix

package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestReadInsideStaysInAndReadsOnlyRegularFiles: what the app reads from a
// workspace is a regular file inside it, capped; links out, devices and
// FIFOs are refused at once.
func TestReadInsideStaysInAndReadsOnlyRegularFiles(t *testing.T) {
	base, _ := fixture(t)
	root := filepath.Join(base, "ws")
	os.WriteFile(filepath.Join(root, "big.md"), make([]byte, 100), 0o644)
	os.Symlink("/dev/zero", filepath.Join(root, "zero"))
	os.Symlink("/proc/self/environ", filepath.Join(root, "env"))
	syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if b, trunc, err := ReadInside(root, "src/a.txt", 10); err != nil || trunc || string(b) != "a\n" {
			t.Errorf("src/a.txt: %q %v %v", b, trunc, err)
		}
		if b, _, err := ReadInside(root, "link.txt", 10); err != nil || string(b) != "a\n" {
			t.Errorf("a link inside: %q %v", b, err)
		}
		if b, trunc, err := ReadInside(root, "big.md", 10); err != nil || !trunc || len(b) != 10 {
			t.Errorf("capped: %d %v %v", len(b), trunc, err)
		}
		for _, p := range []string{"secret.txt", "zero", "env", "deep/x/y/out/s", "../outside/s"} {
			var we *Error
			if _, _, err := ReadInside(root, p, 10); !errors.As(err, &we) || we.Code != CodeOutside {
				t.Errorf("%s: %v, want refused as outside", p, err)
			}
		}
		var nr *NotRegularError
		if _, _, err := ReadInside(root, "fifo", 10); !errors.As(err, &nr) || nr.Kind != "a FIFO (named pipe)" {
			t.Errorf("fifo: %v", err)
		}
		if _, _, err := ReadInside(root, "missing.md", 10); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("missing: %v", err)
		}
		if _, _, err := ReadNoLinks(root, "link.txt", 10); !errors.As(err, &nr) || nr.Kind != "a symbolic link" {
			t.Errorf("ReadNoLinks through a link: %v", err)
		}
		if _, _, err := ReadNoLinks(root, "deep/x/y/out/s", 10); !errors.As(err, &nr) || nr.Path != "deep/x/y/out" {
			t.Errorf("ReadNoLinks through a linked folder: %v", err)
		}
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("a read waited (a FIFO or a device was opened)")
	}
}

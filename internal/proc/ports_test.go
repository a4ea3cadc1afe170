//go:build linux

package proc

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestPortDetectionWithRealListener(t *testing.T) {
	rec := &recorder{}
	portFile := filepath.Join(t.TempDir(), "port")
	r := newReg(t, Options{Observer: rec, PortScan: 50 * time.Millisecond, Env: func() []string {
		return append(os.Environ(), "PROCTEST_HELPER=listen", "PROCTEST_PORTFILE="+portFile)
	}})
	// The listener is a grandchild (bash runs it in a subshell), as with npm.
	in, err := r.Start("echo starting; ("+strconv.Quote(os.Args[0])+" -test.run=NONE); true", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var port int
	waitFor(t, 10*time.Second, "the helper's port file", func() bool {
		b, err := os.ReadFile(portFile)
		port, _ = strconv.Atoi(string(b))
		return err == nil && port > 0
	})
	waitFor(t, 10*time.Second, "the port in Info", func() bool {
		in, _ = r.Info(in.ProcessID)
		return slices.Contains(in.Ports, port)
	})
	waitFor(t, 5*time.Second, "an updated event", func() bool {
		ev, _, infos := rec.snapshot()
		for i, e := range ev {
			if e == "updated p1" && slices.Contains(infos[i].Ports, port) {
				return true
			}
		}
		return false
	})
	if out, _ := r.Stop(in.ProcessID); out.Ports != nil {
		t.Fatalf("ports after stop: %v", out.Ports)
	}
}

func TestPortFromPrintedURL(t *testing.T) {
	r := newReg(t, Options{PortScan: -1})
	// As Vite prints it: the port in bold.
	in, err := r.Start(`printf '  Local:   http://localhost:\033[1m5173\033[22m/\n'; sleep 30`, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, "port 5173 in Info", func() bool {
		in, _ = r.Info(in.ProcessID)
		return slices.Equal(in.Ports, []int{5173})
	})
}

func TestURLScannerAcrossReads(t *testing.T) {
	var s urlScanner
	text := "ready at http://127.0.0.1:8080/ and http://[::1]:3000 not http://example.com:80 "
	var got []int
	for i := 0; i < len(text); i += 7 { // URLs split across reads
		got = append(got, s.scan([]byte(text[i:min(len(text), i+7)]))...)
	}
	if got = uniqueSorted(got); !slices.Equal(got, []int{3000, 8080}) {
		t.Fatalf("got %v", got)
	}
	if p := s.scan([]byte(strings.Repeat("x", 100000))); p != nil {
		t.Fatalf("no URL, got %v", p)
	}
}

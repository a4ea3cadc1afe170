//go:build desktop

package smoke

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// window is the production binary (GATEHOUSE_BIN) running in a real window
// on its own Xvfb, with a fresh home folder.
type window struct {
	Display string
	Home    string
	// Data is Gatehouse's data folder (sessions, images).
	Data  string
	Title string
	Ctx   context.Context
	log   lockedBuffer
}

// openWindow starts the app on the workspace folder name below a fresh
// home and waits until the page called Ready() and the window is mapped.
// With baseURL set, the saved settings point it at that model server with
// model. The app, its X server and the context end with the test.
func openWindow(t *testing.T, name, baseURL, model string) *window {
	t.Helper()
	bin := os.Getenv("GATEHOUSE_BIN")
	if bin == "" {
		t.Fatal("GATEHOUSE_BIN must name the production binary (make smoke sets it)")
	}
	w := &window{Display: startXvfb(t, 1440, 900), Home: t.TempDir(), Title: name + " — Gatehouse"}
	ws := filepath.Join(w.Home, name)
	config := filepath.Join(w.Home, ".config", "gatehouse")
	w.Data = filepath.Join(w.Home, ".local", "share", "gatehouse")
	for _, d := range []string{ws, config} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if baseURL != "" {
		settings, _ := json.Marshal(map[string]string{"baseURL": baseURL, "model": model, "approvalMode": "safe"})
		os.WriteFile(filepath.Join(config, "settings.json"), settings, 0o600)
		os.WriteFile(filepath.Join(config, "api-key"), []byte("sk-test"), 0o600)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	w.Ctx = ctx
	cmd := exec.CommandContext(ctx, bin, "--workspace", ws)
	cmd.Env = append(cleanEnv(), "DISPLAY="+w.Display, "HOME="+w.Home,
		"XDG_CONFIG_HOME="+filepath.Join(w.Home, ".config"), "XDG_DATA_HOME="+filepath.Join(w.Home, ".local", "share"),
		"XDG_CACHE_HOME="+filepath.Join(w.Home, ".cache"),
		// Software rendering: Xvfb has no GPU.
		"WEBKIT_DISABLE_COMPOSITING_MODE=1", "LIBGL_ALWAYS_SOFTWARE=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopGroup(cmd) })
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		once := false
		for sc.Scan() {
			w.log.WriteString(sc.Text() + "\n")
			if !once && strings.Contains(sc.Text(), "msg=ready") {
				once = true
				close(ready)
			}
		}
	}()
	select {
	case <-ready:
	case <-ctx.Done():
		t.Fatalf("the page never called Ready(); app log:\n%s", w.Log())
	}
	if err := waitWindow(ctx, w.Display, w.Title); err != nil {
		t.Fatalf("window never mapped: %v; app log:\n%s", err, w.Log())
	}
	return w
}

// Log is what the app printed so far.
func (w *window) Log() string { return w.log.String() }

// xdo runs xdotool on the window's display and returns its output.
func (w *window) xdo(t *testing.T, args ...string) string {
	t.Helper()
	c := exec.CommandContext(w.Ctx, "xdotool", args...)
	c.Env = append(os.Environ(), "DISPLAY="+w.Display)
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("xdotool %v: %v: %s", args, err, out)
	}
	return string(out)
}

// screenshot saves the whole screen to path (imagemagick's import).
func (w *window) screenshot(path string) error {
	out, err := exec.CommandContext(w.Ctx, "import", "-display", w.Display, "-window", "root", path).CombinedOutput()
	if err != nil {
		return fmt.Errorf("import (apt package imagemagick): %v: %s", err, out)
	}
	return nil
}

// waitStored waits until the data folder's image store holds an image
// (the page attached one), calling poke between looks; it fails the test
// with a screenshot after 30 s.
func (w *window) waitStored(t *testing.T, what string, poke func()) string {
	t.Helper()
	store := filepath.Join(w.Data, "images")
	for deadline := time.Now().Add(30 * time.Second); ; {
		if poke != nil {
			poke()
		}
		entries, _ := os.ReadDir(store)
		for _, e := range entries {
			if !strings.HasPrefix(e.Name(), ".") { // not a picture still being written (.tmp-*, renamed when whole)
				return filepath.Join(store, e.Name())
			}
		}
		if time.Now().After(deadline) {
			shot := filepath.Join(os.TempDir(), "gatehouse-"+what+"-failed.png")
			w.screenshot(shot)
			t.Fatalf("no image reached the store after the %s (screenshot %s); app log:\n%s", what, shot, w.Log())
		}
		time.Sleep(500 * time.Millisecond)
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) WriteString(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.WriteString(s)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

//go:build desktop

package smoke

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"gatehouse/internal/llm/llmtest"
)

// TestDesktopPasteImage puts a PNG on the X clipboard (xclip -t image/png)
// and presses Ctrl+V in the real window's composer: WebKitGTK's paste event
// must carry the image to the page, which attaches it (the backend saves it
// in the data folder's image store) and shows its thumbnail.
func TestDesktopPasteImage(t *testing.T) {
	srv := llmtest.StartUnchecked(llmtest.Script{Models: []string{"gpt-4o"}})
	t.Cleanup(srv.Close)
	w := openWindow(t, "pics", srv.URL, "gpt-4o")

	// A 300×200 PNG on the clipboard; xclip stays as its owner until killed.
	pic := writePNG(t, filepath.Join(w.Home, "shot.png"), 300, 200)
	clip := exec.Command("xclip", "-selection", "clipboard", "-t", "image/png", "-i", pic)
	clip.Env = append(os.Environ(), "DISPLAY="+w.Display)
	clip.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := clip.Start(); err != nil {
		t.Fatalf("xclip (apt package xclip): %v", err)
	}
	t.Cleanup(func() { stopGroup(clip) })

	w.xdo(t, "search", "--onlyvisible", "--name", w.Title, "windowfocus", "--sync")
	stored := w.waitStored(t, "paste", func() {
		w.xdo(t, "key", "--clearmodifiers", "ctrl+l")
		w.xdo(t, "key", "--clearmodifiers", "ctrl+v")
		time.Sleep(500 * time.Millisecond)
	})
	// WebKitGTK may re-encode what it read from the clipboard: the size says
	// it is the pasted picture.
	checkSize(t, stored, 300, 200)
}

// writePNG writes a w×h PNG with a red diagonal to path and returns path.
func writePNG(t *testing.T, path string, w, h int) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := 0; x < w; x++ {
		img.Set(x, x%h, color.RGBA{R: 255, A: 255})
	}
	var buf bytes.Buffer
	png.Encode(&buf, img)
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// checkSize fails unless the image at path is w×h.
func checkSize(t *testing.T, path string, w, h int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if cfg, _, err := image.DecodeConfig(f); err != nil || cfg.Width != w || cfg.Height != h {
		t.Fatalf("the store holds %+v (%v), not the %d×%d PNG", cfg, err, w, h)
	}
}

func stopGroup(cmd *exec.Cmd) {
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
}

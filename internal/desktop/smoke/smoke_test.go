//go:build desktop

package smoke

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDesktopSmoke starts the production binary under Xvfb, waits until its
// window is mapped and the page called Ready(), and takes a screenshot that
// must not be blank.
func TestDesktopSmoke(t *testing.T) {
	shot := os.Getenv("GATEHOUSE_SMOKE_SHOT")
	if shot == "" {
		shot = filepath.Join(t.TempDir(), "smoke.png")
	}
	w := openWindow(t, "my-project", "", "")
	if err := os.MkdirAll(filepath.Dir(shot), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := w.screenshot(shot); err != nil {
		t.Fatal(err)
	}
	img := decode(t, shot)
	if colours, share := contrast(img); colours < 16 || share < 0.01 {
		t.Fatalf("screenshot %s looks blank: %d colours, %.3f of pixels differ from the background", shot, colours, share)
	}
	t.Logf("screenshot: %s", shot)
}

// waitWindow waits until a visible window with the given title exists.
func waitWindow(ctx context.Context, display, title string) error {
	for {
		cmd := exec.CommandContext(ctx, "xdotool", "search", "--onlyvisible", "--name", title)
		cmd.Env = append(os.Environ(), "DISPLAY="+display)
		if out, err := cmd.Output(); err == nil && len(bytes.TrimSpace(out)) > 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func decode(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	return img
}

// contrast counts distinct colours and the share of pixels that differ from
// the most common one (the background).
func contrast(img image.Image) (int, float64) {
	counts := map[uint32]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			counts[(r>>8)<<16|(g>>8)<<8|bl>>8]++
		}
	}
	most := 0
	for _, n := range counts {
		most = max(most, n)
	}
	total := b.Dx() * b.Dy()
	return len(counts), float64(total-most) / float64(total)
}

// cleanEnv drops variables that would let the app reach the developer's own
// session or model account.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "OPENAI_") || strings.HasPrefix(k, "GATEHOUSE_") || k == "DISPLAY" || k == "WAYLAND_DISPLAY" || k == "DBUS_SESSION_BUS_ADDRESS" {
			continue
		}
		env = append(env, kv)
	}
	return env
}

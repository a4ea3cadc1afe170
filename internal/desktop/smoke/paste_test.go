//go:build desktop

package smoke

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
	bin := os.Getenv("GATEHOUSE_BIN")
	if bin == "" {
		t.Fatal("GATEHOUSE_BIN must name the production binary (make smoke sets it)")
	}
	display := startXvfb(t, 1440, 900)
	srv := llmtest.StartUnchecked(llmtest.Script{Models: []string{"gpt-4o"}})
	t.Cleanup(srv.Close)

	home := t.TempDir()
	ws := filepath.Join(home, "pics")
	config := filepath.Join(home, ".config", "gatehouse")
	data := filepath.Join(home, ".local", "share", "gatehouse")
	for _, d := range []string{ws, config} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	settings, _ := json.Marshal(map[string]string{"baseURL": srv.URL, "model": "gpt-4o", "approvalMode": "safe"})
	os.WriteFile(filepath.Join(config, "settings.json"), settings, 0o600)
	os.WriteFile(filepath.Join(config, "api-key"), []byte("sk-test"), 0o600)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--workspace", ws)
	cmd.Env = append(cleanEnv(), "DISPLAY="+display, "HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
		"XDG_CACHE_HOME="+filepath.Join(home, ".cache"), "WEBKIT_DISABLE_COMPOSITING_MODE=1", "LIBGL_ALWAYS_SOFTWARE=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopGroup(cmd) })
	var log bytes.Buffer
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		once := false
		for sc.Scan() {
			log.WriteString(sc.Text() + "\n")
			if !once && strings.Contains(sc.Text(), "msg=ready") {
				once = true
				close(ready)
			}
		}
	}()
	select {
	case <-ready:
	case <-ctx.Done():
		t.Fatalf("the page never called Ready(); app log:\n%s", log.String())
	}
	title := "pics — Gatehouse"
	if err := waitWindow(ctx, display, title); err != nil {
		t.Fatalf("window never mapped: %v", err)
	}

	// A 300×200 PNG on the clipboard; xclip stays as its owner until killed.
	pic := filepath.Join(home, "shot.png")
	img := image.NewRGBA(image.Rect(0, 0, 300, 200))
	for x := 0; x < 300; x++ {
		img.Set(x, x%200, color.RGBA{R: 255, A: 255})
	}
	var buf bytes.Buffer
	png.Encode(&buf, img)
	os.WriteFile(pic, buf.Bytes(), 0o600)
	clip := exec.Command("xclip", "-selection", "clipboard", "-t", "image/png", "-i", pic)
	clip.Env = append(os.Environ(), "DISPLAY="+display)
	clip.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := clip.Start(); err != nil {
		t.Fatalf("xclip (apt package xclip): %v", err)
	}
	t.Cleanup(func() { stopGroup(clip) })

	xdo := func(args ...string) {
		c := exec.CommandContext(ctx, "xdotool", args...)
		c.Env = append(os.Environ(), "DISPLAY="+display)
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("xdotool %v: %v: %s", args, err, out)
		}
	}
	xdo("search", "--onlyvisible", "--name", title, "windowfocus", "--sync")
	store := filepath.Join(data, "images")
	deadline := time.Now().Add(30 * time.Second)
	for {
		xdo("key", "--clearmodifiers", "ctrl+l")
		xdo("key", "--clearmodifiers", "ctrl+v")
		time.Sleep(time.Second)
		if entries, _ := os.ReadDir(store); len(entries) > 0 {
			break
		}
		if time.Now().After(deadline) {
			shot := filepath.Join(os.TempDir(), "gatehouse-paste-failed.png")
			exec.Command("import", "-display", display, "-window", "root", shot).Run()
			t.Fatalf("no image reached the store after Ctrl+V (screenshot %s); app log:\n%s", shot, log.String())
		}
	}
	entries, _ := os.ReadDir(store)
	// WebKitGTK may re-encode what it read from the clipboard: the size says
	// it is the pasted picture.
	f, err := os.Open(filepath.Join(store, entries[0].Name()))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if cfg, _, err := image.DecodeConfig(f); err != nil || cfg.Width != 300 || cfg.Height != 200 {
		t.Fatalf("the store holds %+v (%v), not the pasted 300×200 PNG", cfg, err)
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

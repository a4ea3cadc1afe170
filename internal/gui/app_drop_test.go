package gui

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/llm/llmtest"
)

func writeTestPNG(t *testing.T, path string) {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 12, 8))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestRefusedDropAttachesByTokenOnce drops a PNG while the model in effect
// (one nothing speaks of) is sent no images: the refusal carries a token,
// not a path; after the user marks the model, the token attaches that file
// and nothing else, once.
func TestRefusedDropAttachesByTokenOnce(t *testing.T) {
	app, _ := newTestApp(t, llmtest.Script{})
	dir := t.TempDir()
	pic := filepath.Join(dir, "shot.png")
	writeTestPNG(t, pic)
	secret := filepath.Join(dir, "secret.png")
	writeTestPNG(t, secret)

	f := app.attachDropped(pic)
	if f.Refused == "" || !f.CanMark || f.Image != nil {
		t.Fatalf("a model nothing speaks of took the drop: %+v", f)
	}
	if f.Token == "" || strings.Contains(f.Token, "shot") || strings.Contains(f.Token, dir) {
		t.Fatalf("the refusal's token %q is empty or names the path", f.Token)
	}
	if err := app.MarkModelVision("fake-model", true); err != nil {
		t.Fatal(err)
	}
	// The page names paths, other tokens: none reads a file.
	for _, bad := range []string{secret, pic, "", f.Token + "0", strings.ToUpper(f.Token)} {
		if r, err := app.AttachDropped(bad); err == nil || r.Image != nil {
			t.Fatalf("AttachDropped(%q) attached %+v", bad, r)
		}
	}
	r, err := app.AttachDropped(f.Token)
	if err != nil || r.Image == nil {
		t.Fatalf("the marked model's retry: %+v, %v", r, err)
	}
	if r.Image.Name != "shot.png" || r.Image.Width != 12 || r.Image.Height != 8 {
		t.Fatalf("attached %+v, not the dropped file", r.Image)
	}
	if _, err := app.ImageData(r.Image.ID); err != nil {
		t.Fatalf("the store does not hold the retried drop: %v", err)
	}
	_, err = app.AttachDropped(f.Token)
	if err == nil || !strings.Contains(err.Error(), "drop it on the window again") {
		t.Fatalf("a second use of the token: %v", err)
	}
}

// TestRefusedDropsAreForgottenAndBounded: a drop the user removed is
// forgotten, and only the latest refusals are held.
func TestRefusedDropsAreForgottenAndBounded(t *testing.T) {
	app, _ := newTestApp(t, llmtest.Script{})
	pic := filepath.Join(t.TempDir(), "shot.png")
	writeTestPNG(t, pic)
	removed := app.attachDropped(pic).Token
	app.ForgetDropped(removed)
	var tokens []string
	for range maxHeldDrops + 1 {
		tokens = append(tokens, app.attachDropped(pic).Token)
	}
	if err := app.MarkModelVision("fake-model", true); err != nil {
		t.Fatal(err)
	}
	if _, err := app.AttachDropped(removed); err == nil {
		t.Fatal("a removed drop was attached")
	}
	if _, err := app.AttachDropped(tokens[0]); err == nil {
		t.Fatal("the oldest of too many refused drops was still held")
	}
	if r, err := app.AttachDropped(tokens[len(tokens)-1]); err != nil || r.Image == nil {
		t.Fatalf("the latest refused drop: %+v, %v", r, err)
	}
}

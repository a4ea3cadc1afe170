package cli

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/llm/llmtest"
)

func writePNG(t *testing.T, dir, name string, w, h int) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p, buf.Bytes()
}

// --image (repeatable) sends each picture with the prompt, on both APIs.
func TestExecImageSendsPictures(t *testing.T) {
	for _, api := range []string{"chat", "responses"} {
		t.Run(api, func(t *testing.T) {
			srv := llmtest.Start(t, llmtest.Script{Models: []string{"gpt-4o"}, Responses: []llmtest.Response{{Text: llmtest.Text("two grey boxes")}}})
			dir := t.TempDir()
			a, da := writePNG(t, dir, "a.png", 5, 5)
			b, _ := writePNG(t, dir, "b.png", 7, 3)
			r := runExec(t, context.Background(), testEnv(t, nil), "--workspace", t.TempDir(), "--prompt", "what are these?",
				"--approval", "auto", "--base-url", srv.URL, "--model", "gpt-4o", "--api", api, "--image", a, "--image", b)
			if r.code != ExitCompleted {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			got := srv.Images(0)
			if len(got) != 2 || !bytes.Equal(got[0].Data, da) || got[0].Role != "user" || got[0].API != api {
				t.Fatalf("sent %+v", got)
			}
		})
	}
}

// A model that cannot see is refused before the turn, and nothing is sent.
func TestExecImageRefusedForATextOnlyModel(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Models: []string{"gpt-3.5-turbo"}})
	p, _ := writePNG(t, t.TempDir(), "a.png", 5, 5)
	r := runExec(t, context.Background(), testEnv(t, nil), "--workspace", t.TempDir(), "--prompt", "look",
		"--approval", "auto", "--base-url", srv.URL, "--model", "gpt-3.5-turbo", "--image", p)
	if r.code != ExitError || !strings.Contains(r.stderr, "cannot see images") {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if n := len(srv.ModelRequests()); n != 0 {
		t.Fatalf("%d model requests", n)
	}
	txt := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(txt, []byte("not an image"), 0o644)
	srv2 := llmtest.Start(t, llmtest.Script{Models: []string{"gpt-4o"}})
	r = runExec(t, context.Background(), testEnv(t, nil), "--workspace", t.TempDir(), "--prompt", "look",
		"--approval", "auto", "--base-url", srv2.URL, "--model", "gpt-4o", "--image", txt)
	if r.code != ExitError || !strings.Contains(r.stderr, "is not a PNG, JPEG, WEBP or GIF") {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
}

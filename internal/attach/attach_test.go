package attach

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"image"
	"image/png"
	"strings"
	"testing"

	"gatehouse/internal/images"
	"gatehouse/internal/llm"
	"gatehouse/internal/protocol"
)

func png64(t *testing.T, w, h int) string {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

func TestAddRefusesAtOnceForAModelThatCannotSee(t *testing.T) {
	v := llm.Vision{Source: llm.VisionUnknown}
	a := &Attacher{Store: images.NewStore(t.TempDir()), Vision: func(context.Context) (string, llm.Vision) { return "local-7b", v }}
	_, err := a.Add(context.Background(), "", png64(t, 4, 4))
	var r *RefusedError
	if !errors.As(err, &r) || !r.CanMark || r.Model != "local-7b" || !strings.Contains(r.Reason, "does not know whether local-7b") {
		t.Fatalf("unknown model: %v", err)
	}
	v = llm.Vision{Source: llm.VisionServer}
	if _, err = a.Add(context.Background(), "", png64(t, 4, 4)); !errors.As(err, &r) || r.CanMark {
		t.Fatalf("text-only per the server: %v (not the user's to overrule)", err)
	}
	// Accepted while it could see; refused at send once it cannot.
	v = llm.Vision{CanSee: true, Source: llm.VisionSetting}
	ref, err := a.Add(context.Background(), "wide.png", png64(t, 4100, 100))
	if err != nil || ref.Width != 2048 || ref.OrigWidth != 4100 || ref.Name != "wide.png" {
		t.Fatalf("%+v %v", ref, err)
	}
	ims, err := a.Prompt(context.Background(), []protocol.ImageRef{ref})
	if err != nil || len(ims) != 1 || ims[0].Width != 2048 || len(ims[0].Data) == 0 {
		t.Fatalf("%v %v", ims, err)
	}
	if u, err := a.DataURL(ref.ID); err != nil || !strings.HasPrefix(u, "data:image/png;base64,") {
		t.Fatal(u[:20], err)
	}
	v = llm.Vision{CanSee: false, Source: llm.VisionKnownModel}
	if _, err := a.Prompt(context.Background(), []protocol.ImageRef{ref}); !errors.As(err, &r) {
		t.Fatalf("sent to a model that cannot see: %v", err)
	}
}

func TestAddRefusesNonImagesAndBadIDs(t *testing.T) {
	a := &Attacher{Store: images.NewStore(t.TempDir()), Vision: func(context.Context) (string, llm.Vision) {
		return "gpt-4o", llm.Vision{CanSee: true, Source: llm.VisionKnownModel}
	}}
	_, err := a.Add(context.Background(), "notes.txt", base64.StdEncoding.EncodeToString([]byte("plain text here")))
	if err == nil || !strings.Contains(err.Error(), "notes.txt is not a PNG, JPEG, WEBP or GIF") {
		t.Fatal(err)
	}
	if _, err := a.Prompt(context.Background(), []protocol.ImageRef{{ID: "../../etc/passwd"}}); err == nil {
		t.Fatal("a path as an image id was read")
	}
}

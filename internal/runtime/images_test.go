package runtime

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/agent"
	"gatehouse/internal/approval"
	"gatehouse/internal/images"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/session"
)

func testPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewNRGBA(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func attach(t *testing.T, store *images.Store, data []byte) images.Image {
	t.Helper()
	im, err := images.Prepare("shot.png", data)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Put(im); err != nil {
		t.Fatal(err)
	}
	return im
}

func see(yes bool) func() bool { return func() bool { return yes } }

// A model that cannot see never receives an image: the prompt's picture is
// replaced by a line saying so, and view_image is not offered.
func TestTextOnlyModelNeverReceivesAnImage(t *testing.T) {
	store := images.NewStore(t.TempDir())
	h := start(t, llmtest.Script{Responses: []llmtest.Response{text("I cannot see it")}}, approval.Auto, nil,
		func(o *Options) { o.Images, o.CanSee = store, see(false) })
	im := attach(t, store, testPNG(t, 10, 10))
	out, err := h.sess.RunPrompt(context.Background(), agent.Prompt{Text: "look", Images: []images.Image{im}})
	if err != nil || out.Reason != protocol.StopCompleted {
		t.Fatal(out.Reason, err)
	}
	if got := h.srv.Images(0); len(got) != 0 {
		t.Fatalf("a text-only model was sent %d images", len(got))
	}
	body := string(h.srv.ModelRequests()[0].Body)
	if !strings.Contains(body, "cannot see images") {
		t.Errorf("the request does not say the image was left out: %s", body)
	}
	for _, n := range requestTools(t, h.srv, 0) {
		if n == "view_image" {
			t.Error("view_image offered to a model that cannot see")
		}
	}
}

// A model that sees gets the prompt's image, and view_image, whose image
// follows the tool message in a user message; a path outside the
// workspace is refused like read_file's.
func TestViewImageShowsAWorkspaceImageAndRefusesOutside(t *testing.T) {
	store := images.NewStore(t.TempDir())
	outside := filepath.Join(t.TempDir(), "secret.png")
	os.WriteFile(outside, testPNG(t, 4, 4), 0o644)
	pic := testPNG(t, 30, 20)
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "view_image", `{"path":"ui/shot.png"}`),
		call("c2", "view_image", `{"path":"`+outside+`"}`),
		call("c3", "view_image", `{"path":"../secret.png"}`),
		text("a blank 30×20 picture"),
	}}, approval.Safe, map[string]string{"ui/shot.png": string(pic)},
		func(o *Options) { o.Images, o.CanSee = store, see(true) })
	if got := h.run("what is in ui/shot.png?"); got != protocol.StopCompleted {
		t.Fatalf("turn: %s (safe mode asks nothing of a read-only tool)", got)
	}
	if !strings.Contains(strings.Join(requestTools(t, h.srv, 0), ","), "view_image") {
		t.Error("view_image not offered to a model that sees")
	}
	got := h.srv.Images(1)
	if len(got) != 1 || !bytes.Equal(got[0].Data, pic) || got[0].Role != "user" {
		t.Fatalf("request after view_image carried %+v", got)
	}
	for _, id := range []string{"c2", "c3"} {
		if r := h.toolResult(id); !strings.Contains(r, `"ok":false`) || !strings.Contains(r, "outside") {
			t.Errorf("%s: %s", id, r)
		}
	}
	if n := len(h.srv.Images(3)); n != 1 {
		t.Errorf("the last request carried %d images, want the one view_image showed", n)
	}
	if _, _, err := store.Get(images.ID(pic)); err != nil {
		t.Errorf("view_image did not save what it showed: %v", err)
	}
}

// A resumed session sends its saved images again, read from the store by
// the id its log kept, never from the log itself.
func TestResumedSessionSendsSavedImages(t *testing.T) {
	data := t.TempDir()
	logs := session.NewStore(data)
	store := images.NewStore(filepath.Join(data, "images"))
	pic := testPNG(t, 12, 8)
	var root string
	h := start(t, llmtest.Script{Responses: []llmtest.Response{text("seen")}}, approval.Auto, nil, func(o *Options) {
		root = o.Workspace.Root()
		log, err := logs.Create(root, "s-img")
		if err != nil {
			t.Fatal(err)
		}
		o.ID, o.Log, o.Images, o.CanSee = "s-img", log, store, see(true)
	})
	im := attach(t, store, pic)
	if out, err := h.sess.RunPrompt(context.Background(), agent.Prompt{Text: "look", Images: []images.Image{im}}); err != nil || out.Reason != protocol.StopCompleted {
		t.Fatal(out.Reason, err)
	}
	h.sess.Close()
	raw, _ := os.ReadFile(logs.Path(root, "s-img"))
	if bytes.Contains(raw, []byte("iVBOR")) || !bytes.Contains(raw, []byte(im.ID)) {
		t.Fatal("the log should name the image by id and not hold its bytes")
	}
	log, past, err := logs.Open(root, "s-img")
	if err != nil {
		t.Fatal(err)
	}
	if it := past.Items[0]; len(it.Images) != 1 || it.Images[0].ID != im.ID {
		t.Fatalf("restored user item %+v", it)
	}
	h2 := start(t, llmtest.Script{Responses: []llmtest.Response{text("still seen")}}, approval.Auto, nil, func(o *Options) {
		o.ID, o.Log, o.Past, o.Images, o.CanSee = "s-img", log, past, store, see(true)
	})
	if got := h2.run("and now?"); got != protocol.StopCompleted {
		t.Fatal(got)
	}
	if got := h2.srv.Images(0); len(got) != 1 || !bytes.Equal(got[0].Data, pic) {
		t.Fatalf("the resumed request carried %+v", got)
	}
}

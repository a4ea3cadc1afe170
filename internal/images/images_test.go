package images

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"strings"
	"testing"
)

func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := 0; x < w; x += 7 {
		img.Set(x, x%h, color.RGBA{R: 200, A: 255})
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestFitKeepsAspectRatioAndLimit(t *testing.T) {
	for _, c := range []struct{ w, h, ww, wh int }{
		{4000, 3000, 2048, 1536},
		{3000, 4000, 1536, 2048},
		{2048, 10, 2048, 10},
		{100, 50, 100, 50},
		{10000, 3, 2048, 1},
	} {
		w, h := Fit(c.w, c.h, MaxEdge)
		if w != c.ww || h != c.wh {
			t.Errorf("Fit(%d,%d) = %d×%d, want %d×%d", c.w, c.h, w, h, c.ww, c.wh)
		}
	}
}

func TestPrepareScalesLargePNG(t *testing.T) {
	data := pngOf(t, 4096, 1024)
	im, err := Prepare("shot.png", data)
	if err != nil {
		t.Fatal(err)
	}
	if im.Width != 2048 || im.Height != 512 || im.OrigWidth != 4096 || im.OrigHeight != 1024 || !im.Scaled() {
		t.Fatalf("got %d×%d from %d×%d", im.Width, im.Height, im.OrigWidth, im.OrigHeight)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(im.Data))
	if err != nil || cfg.Width != 2048 || cfg.Height != 512 {
		t.Fatalf("re-encoded PNG is %+v, %v", cfg, err)
	}
	if im.MIME != "image/png" || im.ID != ID(im.Data) {
		t.Fatalf("mime %s id %s", im.MIME, im.ID)
	}
}

func TestPrepareKeepsSmallPNGBytes(t *testing.T) {
	data := pngOf(t, 64, 32)
	im, err := Prepare("a.png", data)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(im.Data, data) || im.Scaled() {
		t.Fatal("a small PNG should be sent as it is")
	}
}

func TestPrepareJPEGStaysJPEG(t *testing.T) {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 3000, 2000)), nil); err != nil {
		t.Fatal(err)
	}
	im, err := Prepare("p.jpg", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if im.MIME != "image/jpeg" || im.Width != 2048 || im.Height != 1365 {
		t.Fatalf("got %s %d×%d", im.MIME, im.Width, im.Height)
	}
}

func TestPrepareGIFFirstFrameAsPNG(t *testing.T) {
	pal := color.Palette{color.Black, color.White}
	frame := func(c uint8) *image.Paletted {
		p := image.NewPaletted(image.Rect(0, 0, 20, 10), pal)
		for i := range p.Pix {
			p.Pix[i] = c
		}
		return p
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, &gif.GIF{Image: []*image.Paletted{frame(1), frame(0)}, Delay: []int{0, 0}}); err != nil {
		t.Fatal(err)
	}
	im, err := Prepare("anim.gif", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if im.MIME != "image/png" {
		t.Fatalf("mime %s", im.MIME)
	}
	got, err := png.Decode(bytes.NewReader(im.Data))
	if err != nil {
		t.Fatal(err)
	}
	if r, _, _, _ := got.At(5, 5).RGBA(); r == 0 {
		t.Fatal("not the first (white) frame")
	}
}

func TestPrepareWEBP(t *testing.T) {
	data, err := os.ReadFile("testdata/small.webp")
	if err != nil {
		t.Fatal(err)
	}
	im, err := Prepare("x.webp", data)
	if err != nil {
		t.Fatal(err)
	}
	if im.MIME != "image/png" || im.Width == 0 {
		t.Fatalf("got %+v", im.MIME)
	}
}

func TestPrepareRefusesNonImagesAndHugeFiles(t *testing.T) {
	_, err := Prepare("notes.txt", []byte("hello, this is text"))
	if err == nil || !strings.Contains(err.Error(), "is not a PNG, JPEG, WEBP or GIF image") {
		t.Fatalf("text: %v", err)
	}
	_, err = Prepare("doc.pdf", []byte("%PDF-1.4\n..."))
	if err == nil || !strings.Contains(err.Error(), "application/pdf") {
		t.Fatalf("pdf: %v", err)
	}
	big := make([]byte, MaxBytes+1)
	copy(big, pngOf(t, 2, 2))
	_, err = Prepare("big.png", big)
	if err == nil || !strings.Contains(err.Error(), "20 MB") {
		t.Fatalf("big: %v", err)
	}
	// A PNG header claiming a vast canvas is refused before decoding.
	hdr := pngOf(t, 2, 2)
	bomb := append([]byte{}, hdr...)
	// IHDR width/height at bytes 16..23.
	copy(bomb[16:], []byte{0, 1, 0, 0, 0, 1, 0, 0})
	if _, err := Prepare("bomb.png", bomb); err == nil {
		t.Fatal("a 65536×65536 canvas was accepted")
	}
}

func TestStoreRoundTripAndIDs(t *testing.T) {
	s := NewStore(t.TempDir() + "/images")
	im, err := Prepare("a.png", pngOf(t, 8, 8))
	if err != nil {
		t.Fatal(err)
	}
	id, err := s.Put(im)
	if err != nil || id != im.ID {
		t.Fatal(id, err)
	}
	if _, err := s.Put(im); err != nil {
		t.Fatal("second put:", err)
	}
	data, mime, err := s.Get(id)
	if err != nil || mime != "image/png" || !bytes.Equal(data, im.Data) {
		t.Fatal(mime, err)
	}
	for _, bad := range []string{"../x", "", strings.Repeat("A", 64), strings.Repeat("a", 63)} {
		if _, _, err := s.Get(bad); err == nil {
			t.Errorf("Get(%q) accepted", bad)
		}
	}
	if _, _, err := s.Get(strings.Repeat("a", 64)); err == nil || !strings.Contains(err.Error(), "no longer") {
		t.Fatal(err)
	}
	st, err := os.Stat(s.Dir() + "/" + id)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatal(st.Mode(), err)
	}
}

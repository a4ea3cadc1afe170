package main

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"testing"

	"golang.org/x/image/draw"
)

// The window's icon is the menu icon made small: 256 px, 8 bits a channel
// (cheap for GTK to decode before the page loads), and the same picture.
// After changing build/appicon.png, make it again with
//
//	convert build/appicon.png -resize 256x256 -strip png32:build/windowicon.png
func TestWindowIconIsTheAppIconAt256(t *testing.T) {
	icon, err := png.Decode(bytes.NewReader(appIcon))
	if err != nil {
		t.Fatal(err)
	}
	if b := icon.Bounds(); b.Dx() != 256 || b.Dy() != 256 {
		t.Fatalf("window icon is %v, want 256×256", b.Size())
	}
	if _, ok := icon.(*image.NRGBA); !ok {
		t.Errorf("window icon is a %T, want 8-bit RGBA (NRGBA)", icon)
	}
	f, err := os.Open("build/appicon.png")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	big, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	want := image.NewNRGBA(image.Rect(0, 0, 256, 256))
	draw.CatmullRom.Scale(want, want.Bounds(), big, big.Bounds(), draw.Src, nil)
	// Resamplers differ by a few levels at edges; another picture differs by far more.
	var diff, n float64
	for y := 0; y < 256; y++ {
		for x := 0; x < 256; x++ {
			r1, g1, b1, a1 := icon.At(x, y).RGBA()
			r2, g2, b2, a2 := want.At(x, y).RGBA()
			for _, d := range [][2]uint32{{r1, r2}, {g1, g2}, {b1, b2}, {a1, a2}} {
				diff += abs(float64(d[0]>>8) - float64(d[1]>>8))
				n++
			}
		}
	}
	if mean := diff / n; mean > 2 {
		t.Errorf("window icon differs from build/appicon.png scaled to 256 px by %.2f levels a channel on average; make it again (see above)", mean)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

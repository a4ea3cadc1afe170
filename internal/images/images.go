// Package images turns a picture the user attaches (or a tool reads) into
// one a model accepts, and keeps it with the session.
//
// Prepare takes the bytes of a PNG, JPEG, WEBP or GIF (its first frame),
// at most MaxBytes, and returns an image whose long edge is at most
// MaxEdge: a larger one is scaled down, keeping its aspect ratio, and
// re-encoded (PNG stays PNG, JPEG stays JPEG at quality 90; WEBP and GIF
// become PNG, which every vision API accepts). Anything else is refused
// with an error that says why in words a user can act on.
//
// Decoding and scaling use golang.org/x/image, maintained by the Go team
// beside the standard library: its webp package decodes WEBP (the standard
// library has none), and its draw.CatmullRom kernel scales with a quality
// close to Lanczos without cgo, so the single static binary stays as it is.
// Encoding uses the standard library's image/png and image/jpeg.
//
// Store keeps images content-addressed (by the SHA-256 of their bytes) in a
// folder of the data directory, so a session log names an image by its id
// and never holds its bytes, and the same picture pasted twice is one file.
package images

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"net/http"

	"gatehouse/internal/protocol"

	"golang.org/x/image/draw"
	"golang.org/x/image/webp"
)

// MaxBytes is the largest image Prepare accepts, before scaling.
const MaxBytes = 20 << 20

// MaxEdge is the longest edge, in pixels, of an image Prepare returns.
const MaxEdge = 2048

// maxPixels bounds the decoded size, so a small file declaring a huge
// canvas cannot exhaust memory.
const maxPixels = 100_000_000

// Image is a prepared image: its bytes as sent to the model and what the
// user is shown about it.
type Image struct {
	// ID is the hex SHA-256 of Data.
	ID   string
	MIME string // image/png or image/jpeg
	Data []byte
	// Width and Height are Data's; OrigWidth and OrigHeight the image's as
	// attached (equal unless it was scaled).
	Width, Height         int
	OrigWidth, OrigHeight int
	// OrigBytes is the size of the attached file.
	OrigBytes int
	// Name is the file's base name, "" for a paste.
	Name string
}

// Ref is im as the log and the page name it.
func (im Image) Ref() protocol.ImageRef {
	return protocol.ImageRef{ID: im.ID, MIME: im.MIME, Name: im.Name, Width: im.Width, Height: im.Height,
		OrigWidth: im.OrigWidth, OrigHeight: im.OrigHeight, OrigBytes: im.OrigBytes, Bytes: len(im.Data)}
}

// Scaled reports whether Prepare scaled the image down.
func (im Image) Scaled() bool { return im.Width != im.OrigWidth || im.Height != im.OrigHeight }

// Sniff returns the MIME type of data when it is an image type Prepare
// accepts, else "".
func Sniff(data []byte) string {
	switch t := http.DetectContentType(data); t {
	case "image/png", "image/jpeg", "image/webp", "image/gif":
		return t
	}
	return ""
}

// Prepare checks, decodes and if needed scales data; name is only used in
// errors (a file name, "the pasted image").
func Prepare(name string, data []byte) (Image, error) {
	if len(data) > MaxBytes {
		return Image{}, fmt.Errorf("%s is %s; images are limited to 20 MB", name, humanBytes(len(data)))
	}
	mime := Sniff(data)
	if mime == "" {
		return Image{}, fmt.Errorf("%s is not a PNG, JPEG, WEBP or GIF image (it looks like %s)", name, http.DetectContentType(data))
	}
	if cfg, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil && cfg.Width*cfg.Height > maxPixels {
		return Image{}, fmt.Errorf("%s is %d×%d pixels; images are limited to %d megapixels", name, cfg.Width, cfg.Height, maxPixels/1_000_000)
	}
	img, err := decode(mime, data)
	if err != nil {
		return Image{}, fmt.Errorf("%s could not be read as %s: %v", name, mime, err)
	}
	b := img.Bounds()
	out := Image{OrigWidth: b.Dx(), OrigHeight: b.Dy(), Width: b.Dx(), Height: b.Dy(), OrigBytes: len(data)}
	if out.OrigWidth == 0 || out.OrigHeight == 0 {
		return Image{}, fmt.Errorf("%s has no pixels", name)
	}
	w, h := Fit(out.OrigWidth, out.OrigHeight, MaxEdge)
	scaled := w != out.OrigWidth || h != out.OrigHeight
	switch {
	case !scaled && (mime == "image/png" || mime == "image/jpeg"):
		out.MIME, out.Data = mime, data
	default:
		if scaled {
			dst := image.NewRGBA(image.Rect(0, 0, w, h))
			draw.CatmullRom.Scale(dst, dst.Bounds(), img, b, draw.Src, nil)
			img = dst
		}
		out.Width, out.Height = w, h
		var buf bytes.Buffer
		if mime == "image/jpeg" {
			out.MIME = mime
			err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90})
		} else {
			out.MIME = "image/png"
			err = png.Encode(&buf, img)
		}
		if err != nil {
			return Image{}, fmt.Errorf("%s could not be re-encoded: %v", name, err)
		}
		out.Data = buf.Bytes()
	}
	out.ID = ID(out.Data)
	return out, nil
}

// ID is the content address of data: its hex SHA-256.
func ID(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// Fit returns w×h scaled so that its long edge is at most edge, keeping the
// aspect ratio (rounded, never below 1 px); a smaller image is unchanged.
func Fit(w, h, edge int) (int, int) {
	long := max(w, h)
	if long <= edge {
		return w, h
	}
	scale := func(n int) int { return max(1, (n*edge+long/2)/long) }
	return scale(w), scale(h)
}

func decode(mime string, data []byte) (image.Image, error) {
	r := bytes.NewReader(data)
	switch mime {
	case "image/png":
		return png.Decode(r)
	case "image/jpeg":
		return jpeg.Decode(r)
	case "image/webp":
		return webp.Decode(r)
	case "image/gif":
		return gif.Decode(r) // the first frame
	}
	return nil, fmt.Errorf("unsupported type")
}

func humanBytes(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

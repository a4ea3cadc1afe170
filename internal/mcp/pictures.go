package mcp

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"gatehouse/internal/images"
	"gatehouse/internal/tools"
)

// Pictures from tools: an image in a server's result reaches a model that
// sees as a picture (scaled and capped as pasted pictures and view_image's
// are), kept in the calling session's image store, so its card shows it
// and a resumed session sends it again. A model that cannot see, or a
// session without a store, reads the placeholder line instead.

// MaxResultImages caps the pictures one result shows the model; the rest
// are placeholder lines.
const MaxResultImages = 8

// pictures is how the call in ctx keeps pictures, named name on the card:
// nil when its session's model cannot see now or it keeps no images.
func pictures(ctx context.Context, name string) func(*sdk.ImageContent) (images.Image, error) {
	o, ok := tools.OwnerFrom(ctx)
	if !ok || o.Images == nil || o.CanSee == nil || !o.CanSee() {
		return nil
	}
	return func(c *sdk.ImageContent) (images.Image, error) {
		if len(c.Data) > images.MaxBytes {
			return images.Image{}, errors.New("over 20 MB")
		}
		im, err := images.Prepare("tool image", c.Data)
		if err != nil {
			// Browsers ignore a PNG chunk's checksum, and servers' pictures
			// (server-everything's own) can carry wrong ones: recomputed,
			// the picture reads.
			fixed, ok := fixPNGChecksums(c.Data)
			if !ok {
				return images.Image{}, err
			}
			if im, err = images.Prepare("tool image", fixed); err != nil {
				return images.Image{}, err
			}
		}
		im.Name = name
		if _, err := o.Images.Put(im); err != nil {
			return images.Image{}, err
		}
		return im, nil
	}
}

// picture is the line an image of a result stands as; a picture kept for
// the model joins shown.
func picture(c *sdk.ImageContent, keep func(*sdk.ImageContent) (images.Image, error), shown *[]images.Image) string {
	what := fmt.Sprintf("%s, %s", orUnknown(c.MIMEType), size(len(c.Data)))
	if keep == nil {
		return fmt.Sprintf("[image: %s; not shown]", what)
	}
	if len(*shown) >= MaxResultImages {
		return fmt.Sprintf("[image: %s; not shown: a result shows at most %d pictures]", what, MaxResultImages)
	}
	im, err := keep(c)
	if err != nil {
		return fmt.Sprintf("[image: %s; not shown: %v]", what, err)
	}
	*shown = append(*shown, im)
	if im.Scaled() {
		return fmt.Sprintf("[image %d: %s, %d×%d scaled down from %d×%d; the picture follows]", len(*shown), im.MIME, im.Width, im.Height, im.OrigWidth, im.OrigHeight)
	}
	return fmt.Sprintf("[image %d: %s, %d×%d; the picture follows]", len(*shown), im.MIME, im.Width, im.Height)
}

var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// fixPNGChecksums returns a copy of a PNG with every chunk's CRC
// recomputed; false when data is not a whole PNG's chunks.
func fixPNGChecksums(data []byte) ([]byte, bool) {
	if !bytes.HasPrefix(data, pngSignature) {
		return nil, false
	}
	out := bytes.Clone(data)
	for i := len(pngSignature); i < len(out); {
		if i+12 > len(out) {
			return nil, false
		}
		n := int(binary.BigEndian.Uint32(out[i:]))
		end := i + 8 + n
		if n < 0 || end+4 > len(out) {
			return nil, false
		}
		binary.BigEndian.PutUint32(out[end:], crc32.ChecksumIEEE(out[i+4:end]))
		i = end + 4
	}
	return out, true
}

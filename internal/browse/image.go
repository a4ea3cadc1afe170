package browse

import (
	"encoding/base64"
	"fmt"

	"gatehouse/internal/images"
)

// Image reads a workspace image (PNG, JPEG, WEBP or GIF, at most 20 MB)
// through the same boundary as Read and returns it as a data URL for the
// viewer to show as a picture.
func (b *Workspace) Image(path string) (string, error) {
	abs, rel, err := b.resolve(path)
	if err != nil {
		return "", err
	}
	data, size, err := readHead(abs, images.MaxBytes)
	if err != nil {
		return "", err
	}
	if size > images.MaxBytes {
		return "", fmt.Errorf("%s is over 20 MB; it is not shown", rel)
	}
	mime := images.Sniff(data)
	if mime == "" {
		return "", fmt.Errorf("%s is not a PNG, JPEG, WEBP or GIF image", rel)
	}
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(data), nil
}

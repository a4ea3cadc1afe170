package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"gatehouse/internal/attach"
	"gatehouse/internal/images"
	"gatehouse/internal/llm"
	"gatehouse/internal/sessionhost"
	"gatehouse/internal/settings"
)

// execImages reads the --image files and decides whether the model sees,
// as the window's composer does: a model that cannot see is refused before
// the turn, with the reason. canSee is the session's Options.CanSee.
func execImages(ctx context.Context, client *llm.Client, s settings.Settings, dataDir string, files []string) ([]images.Image, func() bool, error) {
	vision := sessionhost.ModelVision(client, s)
	canSee := sessionhost.CanSee(vision)
	if len(files) == 0 {
		return nil, canSee, nil
	}
	if len(files) > attach.MaxImages {
		return nil, nil, fmt.Errorf("at most %d --image files", attach.MaxImages)
	}
	a := &attach.Attacher{Store: attach.StoreIn(dataDir), Vision: vision}
	var out []images.Image
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			return nil, nil, fmt.Errorf("--image: %w", err)
		}
		if fi.Size() > images.MaxBytes {
			return nil, nil, fmt.Errorf("--image %s is over 20 MB; images are limited to 20 MB", f)
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, nil, fmt.Errorf("--image: %w", err)
		}
		im, err := a.AddBytes(ctx, filepath.Base(f), data)
		if err != nil {
			return nil, nil, fmt.Errorf("--image %s: %w", f, err)
		}
		out = append(out, im)
	}
	return out, canSee, nil
}

// Package attach is the composer's side of pictures in the conversation,
// the same for every host: it refuses an attachment at once when the model
// in effect cannot see (with the reason, before anything is read), prepares
// what it accepts (images.Prepare) and saves it in the session's image
// store, and turns the ids the composer sends back into the images of a
// prompt.
package attach

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"image"
	"path/filepath"

	"gatehouse/internal/images"
	"gatehouse/internal/llm"
	"gatehouse/internal/protocol"
)

// MaxImages bounds the images of one message.
const MaxImages = 10

// Vision answers, for the model in effect now, its name and whether it
// sees (llm.ResolveVision). It may ask the model server once per model.
type Vision func(ctx context.Context) (model string, v llm.Vision)

// Attacher prepares, saves and loads a session's attachments. Safe for
// concurrent use.
type Attacher struct {
	Store  *images.Store
	Vision Vision
}

// RefusedError is an attachment the model in effect would not be sent.
// Reason is for the composer, in words; Model is the model in effect and
// CanMark whether the user may say that it sees (nothing but the user's
// setting has spoken).
type RefusedError struct {
	Reason  string
	Model   string
	CanMark bool
}

func (e *RefusedError) Error() string { return e.Reason }

// Check refuses when the model in effect cannot see, with a *RefusedError.
func (a *Attacher) Check(ctx context.Context) error {
	if a.Vision == nil {
		return &RefusedError{Reason: "This window cannot send images."}
	}
	model, v := a.Vision(ctx)
	if v.CanSee {
		return nil
	}
	return &RefusedError{Reason: llm.VisionRefusal(model, v), Model: model,
		CanMark: v.Source == llm.VisionUnknown || v.Source == llm.VisionSetting}
}

// Add checks the model, then prepares data (base64, as the page sends a
// file) and saves it. name is the file's name, "" for a paste.
func (a *Attacher) Add(ctx context.Context, name, data64 string) (protocol.ImageRef, error) {
	if err := a.Check(ctx); err != nil {
		return protocol.ImageRef{}, err
	}
	if a.Store == nil {
		return protocol.ImageRef{}, errors.New("images cannot be saved: there is no data folder")
	}
	if base64.StdEncoding.DecodedLen(len(data64)) > images.MaxBytes+3 {
		return protocol.ImageRef{}, fmt.Errorf("%s is over 20 MB; images are limited to 20 MB", label(name))
	}
	data, err := base64.StdEncoding.DecodeString(data64)
	if err != nil {
		return protocol.ImageRef{}, fmt.Errorf("%s did not arrive whole: %v", label(name), err)
	}
	im, err := a.AddBytes(ctx, name, data)
	return im.Ref(), err
}

// AddBytes is Add for bytes at hand (a file named on a command line, an
// ACP image block). Without a Store the image is prepared, not saved.
func (a *Attacher) AddBytes(ctx context.Context, name string, data []byte) (images.Image, error) {
	if err := a.Check(ctx); err != nil {
		return images.Image{}, err
	}
	im, err := images.Prepare(label(name), data)
	if err != nil {
		return images.Image{}, err
	}
	im.Name = name
	if a.Store != nil {
		if _, err := a.Store.Put(im); err != nil {
			return images.Image{}, err
		}
	}
	return im, nil
}

// StoreIn is the image store of a data folder ("" : none).
func StoreIn(dataDir string) *images.Store {
	if dataDir == "" {
		return nil
	}
	return images.NewStore(filepath.Join(dataDir, "images"))
}

// Prompt is the images of a message from the refs the composer holds, read
// back from the store; it checks the model again (it may have changed
// since the attachment was accepted).
func (a *Attacher) Prompt(ctx context.Context, refs []protocol.ImageRef) ([]images.Image, error) {
	if len(refs) == 0 {
		return nil, nil
	}
	if len(refs) > MaxImages {
		return nil, fmt.Errorf("a message takes at most %d images", MaxImages)
	}
	if err := a.Check(ctx); err != nil {
		return nil, err
	}
	if a.Store == nil {
		return nil, errors.New("images cannot be saved: there is no data folder")
	}
	out := make([]images.Image, 0, len(refs))
	for _, r := range refs {
		data, mime, err := a.Store.Get(r.ID)
		if err != nil {
			return nil, err
		}
		cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("the saved image %.12s cannot be read: %v", r.ID, err)
		}
		out = append(out, images.Image{ID: r.ID, MIME: mime, Data: data, Name: r.Name, Width: cfg.Width, Height: cfg.Height,
			OrigWidth: r.OrigWidth, OrigHeight: r.OrigHeight, OrigBytes: r.OrigBytes})
	}
	return out, nil
}

// DataURL is a saved image as a data URL, for the page to show.
func (a *Attacher) DataURL(id string) (string, error) {
	if a.Store == nil {
		return "", errors.New("there is no data folder")
	}
	data, mime, err := a.Store.Get(id)
	if err != nil {
		return "", err
	}
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(data), nil
}

func label(name string) string {
	if name == "" {
		return "The pasted image"
	}
	return name
}

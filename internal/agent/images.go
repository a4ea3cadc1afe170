package agent

import (
	"fmt"

	"gatehouse/internal/images"
	"gatehouse/internal/llm"
	"gatehouse/internal/protocol"
)

// Images in the conversation.
//
// A prompt's images (prepared and saved by the host) and a tool result's
// (view_image) join the history with their bytes. A request carries them
// only when Config.CanSee says the model takes images now: otherwise each
// is replaced by a line saying it was left out, and view_image is not
// offered, so a text-only model never receives one, whatever the host did.
// Micro-compaction clears a tool result's images like its text (fit.go); a
// checkpoint summary drops the older messages, images included.

// ViewImageTool is the name of the tool offered only to models that see.
const ViewImageTool = "view_image"

// Prompt is a user's message: its text and the images attached to it.
type Prompt struct {
	Text   string
	Images []images.Image
	// Replaces is the id of the turn this prompt retries (the last one):
	// its messages leave the model's history before this turn starts,
	// unless a checkpoint summary already stands for them.
	Replaces string
}

// updateSees asks Config.CanSee, before a request and outside a.mu.
func (a *Agent) updateSees() { a.sees.Store(a.cfg.CanSee != nil && a.cfg.CanSee()) }

func (a *Agent) canSee() bool { return a.sees.Load() }

func refs(ims []images.Image) []protocol.ImageRef {
	if len(ims) == 0 {
		return nil
	}
	out := make([]protocol.ImageRef, len(ims))
	for i, im := range ims {
		out[i] = im.Ref()
	}
	return out
}

func llmImages(ims []images.Image) []llm.Image {
	if len(ims) == 0 {
		return nil
	}
	out := make([]llm.Image, len(ims))
	for i, im := range ims {
		out[i] = llm.Image{ID: im.ID, MIME: im.MIME, Width: im.Width, Height: im.Height, Data: im.Data}
	}
	return out
}

// withImagesLocked is m as the next request sends it: its images with
// their bytes (read from the store for a resumed session's, and kept),
// or, for a model that cannot see or an image no longer saved, a line in
// their place. a.mu is held.
func (a *Agent) withImagesLocked(m llm.Message) llm.Message {
	if len(m.Images) == 0 {
		return m
	}
	see := a.canSee()
	var kept []llm.Image
	for _, im := range m.Images {
		if !see {
			m.Text += fmt.Sprintf("\n[an image (%.12s) is left out: the model in use cannot see images]", im.ID)
			continue
		}
		if len(im.Data) == 0 && a.cfg.LoadImage != nil {
			if data, err := a.cfg.LoadImage(im.ID); err == nil {
				im.Data = data
				a.keepImageLocked(m.ID, im)
			}
		}
		if len(im.Data) == 0 {
			m.Text += fmt.Sprintf("\n[an image (%.12s) is left out: it is no longer in the data folder]", im.ID)
			continue
		}
		kept = append(kept, im)
	}
	m.Images = kept
	return m
}

// keepImageLocked stores the bytes read for image im of message id in the
// history, so later requests need not read them again.
func (a *Agent) keepImageLocked(id string, im llm.Image) {
	for i := range a.history {
		if a.history[i].ID != id {
			continue
		}
		for j := range a.history[i].Images {
			if a.history[i].Images[j].ID == im.ID {
				a.history[i].Images[j].Data = im.Data
			}
		}
	}
}

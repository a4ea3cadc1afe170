package gui

import (
	"context"
	"errors"

	"gatehouse/internal/attach"
	"gatehouse/internal/images"
	"gatehouse/internal/llm"
	"gatehouse/internal/protocol"
	"gatehouse/internal/settings"
)

// imageStore is the data folder's image store; nil when sessions are not saved.
func (a *App) imageStore() *images.Store { return attach.StoreIn(a.kit.Env().DataDir) }

// vision is whether the model in effect sees: the server, the table, the setting.
func (a *App) vision(ctx context.Context) (string, llm.Vision) {
	s := a.effective().Settings
	return s.Model, llm.ResolveVision(a.model.ServerVision(ctx), s.Model, s.VisionOf(s.Model))
}

func (a *App) attacher() *attach.Attacher {
	return &attach.Attacher{Store: a.imageStore(), Vision: a.vision}
}

// AttachResult is an accepted image, or why the model in effect refuses it.
type AttachResult struct {
	Image   *protocol.ImageRef `json:"image,omitempty"`
	Refused string             `json:"refused,omitempty"`
	Model   string             `json:"model,omitempty"`
	CanMark bool               `json:"canMark,omitempty"`
	// Token is a refused drop's, to attach it again (AttachDropped).
	Token string `json:"token,omitempty"`
}

// AttachImage checks that the model sees, then prepares and saves an image
// the composer was given (data in base64; name "" for a paste).
func (a *App) AttachImage(name, data string) (AttachResult, error) {
	ref, err := a.attacher().Add(context.Background(), name, data)
	var refused *attach.RefusedError
	if errors.As(err, &refused) {
		return AttachResult{Refused: refused.Reason, Model: refused.Model, CanMark: refused.CanMark}, nil
	}
	if err != nil {
		return AttachResult{}, err
	}
	return AttachResult{Image: &ref}, nil
}

// MarkModelVision saves whether model sees images, for a model the server
// and the table say nothing of.
func (a *App) MarkModelVision(model string, sees bool) error {
	if model == "" {
		return errors.New("no model is set")
	}
	return a.store.Update(func(s *settings.Settings) {
		if s.Vision == nil {
			s.Vision = map[string]bool{}
		}
		s.Vision[model] = sees
	})
}

// ImageData is a saved image as a data URL, for thumbnails and the full view.
func (a *App) ImageData(id string) (string, error) { return a.attacher().DataURL(id) }

// canSee is the sessions' Options.CanSee.
func (a *App) canSee() bool {
	_, v := a.vision(context.Background())
	return v.CanSee
}

// WorkspaceImage is a workspace image as a data URL, for the file viewer.
func (a *App) WorkspaceImage(path string) (string, error) {
	b, err := a.openFiles()
	if err != nil {
		return "", err
	}
	return b.Image(path)
}

// VisionView is whether the model in effect sees, and how Gatehouse knows.
type VisionView struct {
	Model  string           `json:"model"`
	CanSee bool             `json:"canSee"`
	Source llm.VisionSource `json:"source"`
}

// ModelVision says whether the model in effect sees images (Settings → Model).
func (a *App) ModelVision() VisionView {
	m, v := a.vision(context.Background())
	return VisionView{Model: m, CanSee: v.CanSee, Source: v.Source}
}

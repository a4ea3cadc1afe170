package sessionhost

import (
	"context"
	"sync"

	"gatehouse/internal/attach"
	"gatehouse/internal/llm"
	"gatehouse/internal/settings"
)

// ModelVision is whether client's model (s.Model) sees images, for a host
// whose model does not change while it runs (exec, ACP): asked of the
// server once, then kept (llm.ResolveVision: the server's /models, the
// table of well-known models, the user's per-model setting).
func ModelVision(client *llm.Client, s settings.Settings) attach.Vision {
	model := s.Model
	var once sync.Once
	var v llm.Vision
	return func(ctx context.Context) (string, llm.Vision) {
		once.Do(func() { v = llm.ResolveVision(client.ServerVision(ctx), model, s.VisionOf(model)) })
		return model, v
	}
}

// CanSee is a Spec.CanSee from vision.
func CanSee(vision attach.Vision) func() bool {
	return func() bool { _, v := vision(context.Background()); return v.CanSee }
}

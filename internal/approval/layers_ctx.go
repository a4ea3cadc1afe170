package approval

import (
	"context"

	"gatehouse/internal/protocol"
)

type layersKey struct{}

// WithLayers returns ctx carrying verdict layers for the call it runs (a
// PreToolUse hook's allow or ask): the gate weighs them with its own, so
// a hook's ask asks in every mode and its allow never beats a deny or an
// ask.
func WithLayers(ctx context.Context, ls ...Layer) context.Context {
	if len(ls) == 0 {
		return ctx
	}
	prev := LayersFrom(ctx)
	return context.WithValue(ctx, layersKey{}, append(append([]Layer(nil), prev...), ls...))
}

// LayersFrom returns the layers WithLayers put on ctx.
func LayersFrom(ctx context.Context) []Layer {
	ls, _ := ctx.Value(layersKey{}).([]Layer)
	return ls
}

type hooksKey struct{}

// CallHooks is what the PreToolUse hooks said about a call before the
// gate saw it: its approval request lists them (which hook said what) and
// says when one rewrote the call.
type CallHooks struct {
	Runs    []protocol.HookRun
	Rewrite *protocol.HookRewrite
}

// WithHooks returns ctx carrying h for the gate of the call it runs.
func WithHooks(ctx context.Context, h CallHooks) context.Context {
	return context.WithValue(ctx, hooksKey{}, h)
}

// HooksFrom returns what WithHooks put on ctx.
func HooksFrom(ctx context.Context) CallHooks {
	h, _ := ctx.Value(hooksKey{}).(CallHooks)
	return h
}

package approval

import "context"

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

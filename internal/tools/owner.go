package tools

import (
	"context"

	"gatehouse/internal/images"
)

// Owner is the session a call runs for, as an executor shared between
// sessions (an MCP server's tool) needs it: to route what the server asks
// back to that session, and to keep the pictures the call returns in its
// image store.
type Owner struct {
	Session string
	// Images is the session's image store (nil: pictures are not kept).
	Images *images.Store
	// CanSee reports whether the session's model takes images now (nil:
	// it does not).
	CanSee func() bool
}

type ownerKey struct{}

// WithOwner records the session a call runs for in ctx.
func WithOwner(ctx context.Context, o Owner) context.Context {
	return context.WithValue(ctx, ownerKey{}, o)
}

// OwnerFrom returns the session recorded in ctx.
func OwnerFrom(ctx context.Context) (Owner, bool) {
	o, ok := ctx.Value(ownerKey{}).(Owner)
	return o, ok
}

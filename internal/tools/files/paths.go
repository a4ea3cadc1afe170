package files

import (
	"context"
	"errors"

	"gatehouse/internal/workspace"
)

// ErrStopPaths, returned by a Paths callback, ends the walk without error.
var ErrStopPaths = errors.New("stop listing paths")

// Paths calls fn with every file and folder of the workspace that glob
// would show the model (the same walk: .gitignore respected, .git, the
// user's denied paths and protected places left out, a symlink listed only
// when it resolves to a readable file inside the boundary), as the
// workspace-relative slash path, folders before what they hold, names
// sorted, without a cap. It is what the composer's @ list searches.
func Paths(ctx context.Context, ws *workspace.Workspace, fn func(rel string, dir bool) error) error {
	w := &walker{ws: ws, ctx: ctx, noSize: true}
	err := w.walk(ws.Root(), func(e entry) error {
		if e.link && !e.dir && !linkReadable(ws, e.abs) {
			return nil
		}
		if err := fn(e.rel, e.dir); err != nil {
			if errors.Is(err, ErrStopPaths) {
				return errStop
			}
			return err
		}
		return nil
	})
	return err
}

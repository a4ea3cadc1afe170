//go:build !unix

package hooks

import "gatehouse/internal/sandbox"

// Confined: nothing confines a workspace's hooks here, so they do not run.
func Confined(string, *sandbox.Policy) Launcher { return nil }

//go:build !linux

package confine

import "gatehouse/internal/sandbox"

// Apply fails: there is no sandbox on this OS.
func Apply(sandbox.Policy) error { return sandbox.ErrUnavailable }

//go:build !linux

package confine

import "gatehouse/internal/sandbox"

// ApplyThread fails: there is no sandbox on this OS.
func ApplyThread(sandbox.Policy) error { return sandbox.ErrUnavailable }

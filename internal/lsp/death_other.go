//go:build unix && !linux

package lsp

import "syscall"

// setDeathSignal: only Linux has a parent-death signal; the helper's
// lifeline covers the app's servers elsewhere.
func setDeathSignal(*syscall.SysProcAttr) {}

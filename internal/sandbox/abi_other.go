//go:build !linux

package sandbox

// ABI is 0: Landlock is Linux only.
func ABI() int { return 0 }

//go:build !linux

package sandbox

// ABI is 0: Landlock is Linux only.
func ABI() int { return 0 }

// fileID is "": there are no namespaces to hold on this OS.
func fileID(string) string { return "" }

// madeID is "", as fileID.
func madeID(string) string { return "" }

//go:build !linux

package main

// fsType names the file system dir is on, for the report: the names come
// from Linux's file system magic numbers, which other systems do not give.
func fsType(string) string { return "file system not identified on this platform" }

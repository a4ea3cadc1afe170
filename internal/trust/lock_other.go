//go:build !unix

package trust

// lockFile is a no-op where flock is missing: one process at a time.
func lockFile(string) (func(), error) { return func() {}, nil }

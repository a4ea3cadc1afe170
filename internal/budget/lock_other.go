//go:build !unix

package budget

import "os"

// lock is a no-op where flock is missing: each entry is one append of a
// whole line, and a reader skips a line it cannot parse.
func lock(*os.File, bool) (func(), error) { return func() {}, nil }

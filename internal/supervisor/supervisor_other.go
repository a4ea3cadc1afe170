//go:build !linux

package supervisor

import (
	"fmt"
	"os"
)

// Main fails: the helper needs Linux (subreaper, /proc, Landlock).
func Main([]string) int {
	fmt.Fprintln(os.Stderr, "gatehouse-supervisor: Linux only")
	return 2
}

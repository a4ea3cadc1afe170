//go:build unix

package web

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process used so far (its GC included): the
// benchmarks report it per page, steadier than wall time on a busy machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

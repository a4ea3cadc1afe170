//go:build unix

package budget

import (
	"os"
	"syscall"
)

// lock takes an flock on f, exclusive or shared, waiting for another
// process that holds it; the returned func releases it.
func lock(f *os.File, exclusive bool) (func(), error) {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }, nil
	}
}

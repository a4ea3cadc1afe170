package confine

import (
	"fmt"
	"math"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// DropCapabilities empties the calling thread's capabilities: the
// bounding set (so that an exec as uid 0 gains none back), the ambient set,
// and the permitted, effective and inheritable sets. It matters where the
// command's thread has some: Gatehouse run as root, and every command that
// joins a holder's user namespace (setns gives the full set there). For a
// user without capabilities there is nothing to drop, and dropping the
// bounding set then fails harmlessly (no CAP_SETPCAP; an exec gains no
// capability anyway, no_new_privs ignoring file capabilities). Per thread,
// like the rest of the confinement.
func DropCapabilities() error {
	for c := uintptr(0); c <= unix.CAP_LAST_CAP+8; c++ { // past the last this build knows: a newer kernel's
		_, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, unix.PR_CAPBSET_DROP, c, 0)
		if e == syscall.EINVAL {
			break // past the kernel's last capability
		}
	}
	syscall.RawSyscall6(syscall.SYS_PRCTL, unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0, 0)
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var none [2]unix.CapUserData
	if _, _, e := syscall.RawSyscall(syscall.SYS_CAPSET, uintptr(unsafe.Pointer(&hdr)), uintptr(unsafe.Pointer(&none[0])), 0); e != 0 {
		return fmt.Errorf("sandbox: capset: %w", e)
	}
	return nil
}

// CloseOnExecAbove marks every descriptor from first up close-on-exec, so
// that an exec that follows passes on only those below (and those a fork
// puts there): nothing the process inherited or was handed on its way in
// reaches the command.
func CloseOnExecAbove(first int) {
	if unix.CloseRange(uint(first), math.MaxUint32, unix.CLOSE_RANGE_CLOEXEC) == nil {
		return
	}
	for fd := first; fd < 1024; fd++ { // kernels before 5.11
		syscall.CloseOnExec(fd)
	}
}

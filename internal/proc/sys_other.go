//go:build !unix

package proc

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// This platform has no process groups or pty support yet: Start and Exec
// fail with errUnsupported, and nothing needs killing.

var errUnsupported = errors.New("processes are not supported on this platform yet")

type group struct {
	pgid int
	sid  int
	sup  *supervisor
}

type supervisor struct{}

func (*supervisor) running() bool { return false }

func (r *Registry) launchSupervised(string, string, string, []string, [3]*os.File, bool, bool) (*launched, error) {
	return nil, errUnsupported
}

func ptyAttrs() *syscall.SysProcAttr { return nil }

func execAttrs() *syscall.SysProcAttr { return nil }

func openPTY(uint16, uint16) (*os.File, *os.File, error) { return nil, nil, errUnsupported }

func resizePTY(*os.File, uint16, uint16) error { return errUnsupported }

func killGroups([]group, time.Duration) {}

func alive(group) bool { return false }

func members(group) []int { return nil }

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}

func membersOf([]group) map[group][]int { return nil }

func listeningPorts([]int) []int { return nil }

func loginAttrs() *syscall.SysProcAttr { return nil }

func killPIDs(func() []int, time.Duration) {}

func (*supervisor) waitDone() {}

func procStart(int) (uint64, bool) { return 0, false }

type helper struct{}

type holder struct{}

func (r *Registry) dropHolder() <-chan struct{} { return nil }

func (r *Registry) dropSpare() <-chan struct{} { return nil }

type sessionNet struct{}

func (r *Registry) dropNet() <-chan struct{} { return nil }

func (r *Registry) forwardPorts() {}

func awaitEnd(<-chan struct{}) {}

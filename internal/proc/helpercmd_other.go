//go:build !unix

package proc

import (
	"errors"
	"os"
	"os/exec"
	"time"

	"gatehouse/internal/sandbox"
)

// errNoHelper: the supervisor helper needs process groups, signals and
// inherited descriptors this platform does not give it here.
var errNoHelper = errors.New("the supervisor helper does not run on this platform: a program that must run under it (confined) does not start")

// HelperCommand refuses: nothing here runs a program under the supervisor
// helper, so nothing that must be confined starts unconfined.
func HelperCommand(string, *sandbox.Policy, time.Duration, []string, *os.File) (*exec.Cmd, error) {
	return nil, errNoHelper
}

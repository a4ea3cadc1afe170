//go:build linux

package proc_test

import (
	"fmt"
	"os"
	"time"

	"gatehouse/internal/proc"
)

// A session's registry: processes get the login environment (read once, at
// most 5 s), their events go to the app's event stream, and closing the
// session kills every process group it started.
func ExampleRegistry() {
	login := &proc.LoginEnv{Timeout: 5 * time.Second}
	reg := proc.NewRegistry(proc.Options{Env: login.Environ /* , Observer: the app's forwarder */})
	defer reg.Close()

	in, err := reg.Start("echo hello", os.TempDir())
	if err != nil {
		panic(err)
	}
	for in.Status == proc.StatusRunning {
		time.Sleep(10 * time.Millisecond)
		in, _ = reg.Info(in.ProcessID)
	}
	logs, _ := reg.Logs(in.ProcessID, 0, 1024)
	fmt.Printf("%s %s exit %d: %q\n", in.ProcessID, in.Status, *in.ExitCode, logs.Content)
	// Output: p1 exited exit 0: "hello\r\n"
}

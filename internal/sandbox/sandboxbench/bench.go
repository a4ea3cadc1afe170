//go:build unix

// Command sandboxbench times `bash exec true` through the process registry
// under the supervisor helper, confined, against the same without the
// helper, in one run, and prints the ratios (target: <= 1.5x): back to back
// (alternating rounds, median), one exec after a pause (-pause, as an agent runs
// commands: the spare helper is ready), and the CPU time per exec. Flags:
// -supervisor (default: build it), -rounds. It builds on Unix only, where
// the supervisor helper runs.
package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/proc"
	"gatehouse/internal/sandbox"
	"gatehouse/internal/supervisor/suptest"
)

// Registries returns a registry running commands directly and one running
// them under the helper at sup, confined to dir with every layer this
// system has (landlockOnly: Landlock and seccomp alone) where the kernel
// has Landlock (confined reports whether it does). Gatehouse's data and
// settings folders are in dir, as the app's are in the home folder.
func Registries(sup, dir string, landlockOnly bool) (direct, supervised *proc.Registry, confined bool) {
	base := proc.Options{Shell: "/bin/bash", PortScan: -1}
	direct = proc.NewRegistry(base)
	o := base
	o.Supervisor = sup
	if sandbox.ABI() > 0 {
		confined = true
		spec := suptest.BenchSpec(dir, landlockOnly)
		o.Sandbox = func(string) *sandbox.Policy {
			p := sandbox.Build(spec)
			return &p
		}
	}
	return direct, proc.NewRegistry(o), confined
}

// ExecTrue is a benchmark of `true` run with r.Exec in dir.
func ExecTrue(r *proc.Registry, dir string) func(*testing.B) {
	return func(b *testing.B) {
		for b.Loop() {
			var out strings.Builder
			res, err := r.Exec(context.Background(), proc.ExecSpec{Command: "true", Dir: dir, Timeout: time.Minute, Stderr: &out})
			if err != nil || res.ExitCode != 0 {
				fail(fmt.Errorf("exec true: %v (exit %d) %s", err, res.ExitCode, out.String()))
			}
		}
	}
}

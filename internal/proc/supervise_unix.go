//go:build unix

package proc

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// supervisor is a running helper: see package supervisor.
type supervisor struct {
	proc *os.Process
	done chan struct{} // closed once the helper was reaped
}

func (s *supervisor) running() bool {
	if s == nil {
		return false
	}
	select {
	case <-s.done:
		return false
	default:
		return true
	}
}

// waitDone returns once the helper was reaped.
func (s *supervisor) waitDone() { <-s.done }

// signal asks the helper to end its command: SIGTERM forwards SIGTERM to
// every descendant, SIGKILL becomes SIGUSR1 (the helper kills them all and
// exits; killing the helper itself would orphan them).
func (s *supervisor) signal(sig syscall.Signal) {
	if sig == syscall.SIGKILL {
		sig = syscall.SIGUSR1
	}
	_ = s.proc.Signal(sig) // a pidfd: never reaches a reused pid
}

// lifeline returns the read end of the registry's lifeline pipe, made on
// first use; the registry holds the write end until Close, and never
// writes: every helper sees end of file once the app is gone. Call with
// r.mu held.
func (r *Registry) lifeline() (*os.File, error) {
	if r.lifeR == nil {
		rd, w, err := os.Pipe()
		if err != nil {
			return nil, err
		}
		r.lifeR, r.lifeW = rd, w
	}
	return r.lifeR, nil
}

// supervisorArgs are the helper's flags for a command in dir.
func (r *Registry) supervisorArgs(dir string, withPTY bool) (args []string, confined bool) {
	args = []string{"-grace", r.o.KillGrace.String()}
	if withPTY {
		args = append(args, "-pty")
	}
	if r.o.Sandbox != nil {
		if p := r.o.Sandbox(dir); p != nil {
			args, confined = append(append(args, "-confine"), p.Args()...), true
		}
	}
	return args, confined
}

func (r *Registry) launchSupervised(shell, command, dir string, env []string, stdio [3]*os.File, withPTY bool) (*launched, error) {
	life, err := r.lifeline()
	if err != nil {
		return nil, err
	}
	statR, statW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	args, confined := r.supervisorArgs(dir, withPTY)
	args = append(args, "--", shell, "-c", command)
	cmd := exec.Command(r.o.Supervisor, args...)
	cmd.Dir, cmd.Env = dir, env
	setStdio(cmd, stdio)
	cmd.ExtraFiles = []*os.File{life, statW} // fds 3 and 4
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = cmd.Start()
	statW.Close()
	if err != nil {
		statR.Close()
		return nil, fmt.Errorf("supervisor helper: %w", err)
	}
	sup := &supervisor{proc: cmd.Process, done: make(chan struct{})}
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(sup.done) }()
	lines := bufio.NewReader(statR)
	kind, text := readStatus(lines)
	if kind != "pid" {
		<-sup.done
		statR.Close()
		if kind == "error" {
			return nil, errors.New(text)
		}
		return nil, fmt.Errorf("supervisor helper ended before starting the command (%v)", waitErr)
	}
	pid, _ := strconv.Atoi(text)
	g := group{pgid: pid, sup: sup}
	if withPTY {
		g.sid = pid
	}
	var once sync.Once
	code := -1
	wait := func() int {
		once.Do(func() {
			defer statR.Close()
			for {
				k, t := readStatus(lines)
				if k == "exit" {
					code, _ = strconv.Atoi(t)
					return
				}
				if k == "" { // the helper is gone without a word: killed
					<-sup.done
					code = exitCode(waitErr)
					return
				}
			}
		})
		return code
	}
	return &launched{pid: pid, g: g, confined: confined, wait: wait}, nil
}

// readStatus reads one "kind text" line of the helper's status pipe; kind
// is "" at end of file.
func readStatus(r *bufio.Reader) (kind, text string) {
	line, err := r.ReadString('\n')
	if err != nil && line == "" {
		return "", ""
	}
	kind, text, _ = strings.Cut(strings.TrimSuffix(line, "\n"), " ")
	return kind, text
}

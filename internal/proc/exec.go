package proc

import (
	"context"
	"io"
	"os"
	"sync"
	"time"

	"gatehouse/internal/sandbox"
)

// ExecSpec is a one-shot command for Exec.
type ExecSpec struct {
	Command string
	Dir     string // already checked by the caller
	Timeout time.Duration
	// Stdout and Stderr receive the output as it comes, each from one
	// goroutine; neither is written to after Exec returns.
	Stdout, Stderr io.Writer
	// Unconfined runs this command outside the sandbox (still under the
	// supervisor): the user chose so for this one call.
	Unconfined bool
}

// ExecResult is how an Exec ended.
type ExecResult struct {
	PID      int
	ExitCode int // 128+n when killed by signal n
	TimedOut bool
	// Confined: the command ran under the sandbox (Options.Sandbox), with
	// Policy.
	Confined bool
	Policy   *sandbox.Policy
	// Restored lists the guarded paths (.git/hooks, .git/config...) the
	// command changed and the sandbox put back: with Landlock alone they
	// are not read-only (sandbox.Guard).
	Restored []string
	// Network, in the network's allow-list mode, are the domains the
	// command reached through the proxy and those it refused.
	Network  *NetUse
	Duration time.Duration
}

// NetUse are the domains one command reached and was refused.
type NetUse struct {
	Reached []string `json:"reached"`
	Refused []string `json:"refused"`
}

// netUse reads c's record, nil without one or when it is empty.
func netUse(c sandbox.NetCall) *NetUse {
	if c == nil {
		return nil
	}
	reached, refused := c.Domains()
	if len(reached)+len(refused) == 0 {
		return nil
	}
	return &NetUse{Reached: reached, Refused: refused}
}

// Exec runs a command to completion in its own process group, with stdin
// closed and stdout and stderr on pipes. It returns once the shell exited and
// its output was drained (for at most ExitDrain: a background child that
// keeps the pipes open does not hold Exec up, and keeps running until Stop of
// the session, CloseAll). On timeout or ctx cancellation it kills the whole
// group (SIGTERM, KillGrace, SIGKILL); on cancellation it returns ctx.Err().
func (r *Registry) Exec(ctx context.Context, spec ExecSpec) (ExecResult, error) {
	if spec.Stdout == nil {
		spec.Stdout = io.Discard
	}
	if spec.Stderr == nil {
		spec.Stderr = io.Discard
	}
	env := r.environ()
	outR, outW, err := os.Pipe()
	if err != nil {
		return ExecResult{}, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return ExecResult{}, err
	}
	defer outR.Close()
	defer errR.Close()

	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		outW.Close()
		errW.Close()
		return ExecResult{}, ErrClosed
	}
	began := time.Now()
	l, err := r.launch(spec.Command, spec.Dir, env, [3]*os.File{nil, outW, errW}, false, spec.Unconfined)
	outW.Close()
	errW.Close()
	if err != nil {
		r.mu.Unlock()
		return ExecResult{}, err
	}
	g := l.g
	r.execs[g] = struct{}{}
	r.o.Ledger.add(g, spec.Command, spec.Dir)
	r.mu.Unlock()
	go r.forget(g)

	var copies sync.WaitGroup
	copies.Add(2)
	go func() { defer copies.Done(); io.Copy(spec.Stdout, outR) }()
	go func() { defer copies.Done(); io.Copy(spec.Stderr, errR) }()
	waited := make(chan int, 1)
	go func() { waited <- l.wait() }()

	res := ExecResult{PID: g.pgid, Confined: l.policy != nil, Policy: l.policy}
	var timeout <-chan time.Time
	if spec.Timeout > 0 {
		t := time.NewTimer(spec.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	var code int
	var cerr error
	select {
	case code = <-waited:
	case <-timeout:
		res.TimedOut = true
		killGroups([]group{g}, r.o.KillGrace)
		code = <-waited
	case <-ctx.Done():
		cerr = ctx.Err()
		killGroups([]group{g}, r.o.KillGrace)
		code = <-waited
	}
	res.Duration = time.Since(began)
	res.ExitCode = code
	res.Restored = l.restored
	res.Network = netUse(l.net)

	// The shell is gone; take what is left in the pipes, but do not wait for
	// a background child that still holds them.
	drained := make(chan struct{})
	go func() { copies.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-time.After(r.o.ExitDrain):
		outR.SetReadDeadline(time.Now())
		errR.SetReadDeadline(time.Now())
		<-drained
	}

	r.mu.Lock()
	if !alive(g) {
		delete(r.execs, g)
	}
	r.mu.Unlock()
	return res, cerr
}

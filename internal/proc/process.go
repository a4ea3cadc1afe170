package proc

import (
	"errors"
	"os"
	"slices"
	"sync"
	"time"

	"gatehouse/internal/sandbox"
)

// process is one entry of a registry: a running or ended process, or one
// restored from an earlier run.
type process struct {
	id   string
	ring *Ring
	g    group
	pty  *os.File // nil once closed, and for restored entries
	// done is closed once the process ended and its Info says so.
	done chan struct{}
	// rdone is closed when the output reader hit EOF (every holder of the
	// pty's terminal side is gone).
	rdone chan struct{}
	// net is its identity at the network proxy (allow-list mode), nil
	// without one.
	net sandbox.NetCall

	mu        sync.Mutex
	inf       Info
	stopping  bool
	groupGone bool // the group was seen empty after the process ended
	urlPorts  []int
	listening []int
}

func (p *process) info() Info {
	p.mu.Lock()
	defer p.mu.Unlock()
	in := p.inf
	in.Ports = slices.Clone(in.Ports)
	if in.ExitCode != nil {
		c := *in.ExitCode
		in.ExitCode = &c
	}
	in.Network = netUse(p.net)
	return in
}

func (p *process) readerDone() bool {
	select {
	case <-p.rdone:
		return true
	default:
		return false
	}
}

func (p *process) running() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.inf.Status == StatusRunning
}

// setPorts records the ports found by a scan (listen) or in output (url) and
// reports whether Info.Ports changed.
func (p *process) setPorts(listen, url []int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.inf.Status != StatusRunning {
		return false
	}
	if listen != nil {
		p.listening = listen
	}
	if len(url) > 0 {
		p.urlPorts = uniqueSorted(append(p.urlPorts, url...))
	}
	ports := uniqueSorted(append(slices.Clone(p.listening), p.urlPorts...))
	if slices.Equal(ports, p.inf.Ports) {
		return false
	}
	p.inf.Ports = ports
	return true
}

// read copies the pty's output into the ring until the terminal side is
// closed by every process holding it. It leaves the pty open: closing it
// hangs the terminal up, and a process that closed its descriptors but has
// not exited yet would die of SIGHUP; wait closes it.
func (p *process) read(f *os.File, onPorts func([]int)) {
	defer close(p.rdone)
	buf := make([]byte, 64<<10)
	var urls urlScanner
	for {
		n, err := f.Read(buf)
		if n > 0 {
			p.ring.Write(buf[:n])
			if ports := urls.scan(buf[:n]); len(ports) > 0 {
				onPorts(ports)
			}
		}
		if err != nil {
			return
		}
	}
}

func (p *process) closePTY() {
	p.mu.Lock()
	f := p.pty
	p.pty = nil
	p.mu.Unlock()
	if f != nil {
		f.Close()
	}
}

// wait reaps the leader, gives the reader a moment to take the last output,
// and marks the process ended.
func (p *process) wait(waitCode func() int, drain time.Duration, ended func()) {
	code := waitCode()
	select {
	case <-p.rdone:
	case <-time.After(drain):
	}
	now := time.Now()
	p.mu.Lock()
	p.inf.Status = StatusExited
	if p.stopping {
		p.inf.Status = StatusStopped
	}
	p.inf.ExitCode = &code
	p.inf.EndedAt = &now
	p.inf.Ports = nil
	p.mu.Unlock()
	close(p.done)
	ended()
	// What is left of the group may still write to the terminal.
	<-p.rdone
	p.closePTY()
}

// write sends input to the process's terminal.
func (p *process) write(b []byte) (int, error) {
	p.mu.Lock()
	f, st := p.pty, p.inf.Status
	p.mu.Unlock()
	if st != StatusRunning || f == nil {
		return 0, notRunning(p.id, st)
	}
	n, err := f.Write(b)
	if errors.Is(err, os.ErrClosed) {
		return n, notRunning(p.id, st)
	}
	return n, err
}

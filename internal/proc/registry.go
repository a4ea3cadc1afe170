package proc

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"gatehouse/internal/sandbox"
)

// Defaults of Options.
const (
	DefaultRingSize  = 2 << 20
	DefaultTick      = 50 * time.Millisecond
	DefaultMaxChunk  = 256 << 10
	DefaultPortScan  = time.Second
	DefaultKillGrace = 2 * time.Second
	DefaultExitDrain = 200 * time.Millisecond
)

// Options configure a Registry. The zero value is usable.
type Options struct {
	// Env returns the environment of new processes (nil: os.Environ). The
	// registry always passes it through SanitizeEnv.
	Env func() []string
	// Shell runs each command as `Shell -c command`; empty: bash from the
	// PATH of Env, else /bin/sh.
	Shell string
	// RingSize is how many bytes of output are kept per process.
	RingSize int
	// Observer receives process events; nil drops them.
	Observer Observer
	// NewTicker makes the ticker of output coalescing (nil: NewTimeTicker),
	// called once with Tick.
	NewTicker func(time.Duration) Ticker
	Tick      time.Duration
	// MaxChunk bounds the bytes of one Output event.
	MaxChunk int
	// PortScan is the period of listening-port detection; negative disables.
	PortScan time.Duration
	// KillGrace is the time between SIGTERM and SIGKILL to a group.
	KillGrace time.Duration
	// ExitDrain is how long output is awaited after a process exits before
	// it is reported ended (a background child may keep the terminal open).
	ExitDrain time.Duration
	// Rows and Cols size new pseudo-terminals (default 24x120).
	Rows, Cols uint16
	// Supervisor is the path of the gatehouse-supervisor helper. When set,
	// every command runs under it: it kills the command's whole tree when
	// the app goes away (crash included) and applies Sandbox. Empty: commands
	// run directly, unconfined, and a crash of the app leaves them running.
	Supervisor string
	// Sandbox returns the policy confining a command about to start in dir,
	// nil to run it unconfined. Called for each command (so a changed
	// setting applies to the next one); used only with Supervisor.
	Sandbox func(dir string) *sandbox.Policy
	// SandboxFor returns Sandbox as it would be for a session of another
	// workspace folder (a child session bound to its own worktree): the
	// same settings, that folder granted instead. nil: such a session's
	// commands run under Sandbox as it is.
	SandboxFor func(workspace string) func(dir string) *sandbox.Policy
	// Ledger, when set, records the process groups of the registry while
	// they may run, so that the next run finds those a crash left
	// (FindLeftovers).
	Ledger *Ledger

	direct bool // tests: run without Supervisor even where one is available
}

// Registry owns the processes of one session. Its methods are safe for
// concurrent use. Close (or CloseAll) must be called when the session ends:
// it kills every process group the registry started.
type Registry struct {
	o    Options
	disp *dispatcher

	mu     sync.Mutex
	procs  map[string]*process
	order  []string
	nextID int
	execs  map[group]struct{} // groups of Exec calls, kept while they may have members
	closed bool
	shell  string

	lifeR, lifeW *os.File     // the supervisors' lifeline (see lifeline)
	spare        *helper      // a helper started ahead of the next command
	hold         *holder      // the namespaces the last confined commands joined
	holdFailed   string       // the HolderKey of a holder that could not start
	snet         *sessionNet  // the session's network namespace (allow-list mode)
	netFailed    int          // the proxy port a session network could not start for
	refilling    bool         // a spare is being started
	lastDir      string       // folder of the last supervised command (see ahead)
	lastEnd      atomic.Int64 // when the last supervised command ended (Unix ns; see inARow)
	refills      sync.WaitGroup
	spareReady   *sync.Cond // on mu: a refill ended

	closeOnce sync.Once
	quit      chan struct{}
	bg        sync.WaitGroup
}

// NewRegistry returns an empty registry. It starts the goroutines of event
// delivery and port detection; Close stops them.
func NewRegistry(o Options) *Registry {
	if o.Env == nil {
		o.Env = os.Environ
	}
	if o.RingSize <= 0 {
		o.RingSize = DefaultRingSize
	}
	if o.Observer == nil {
		o.Observer = nopObserver{}
	}
	if o.NewTicker == nil {
		o.NewTicker = NewTimeTicker
	}
	if o.Tick <= 0 {
		o.Tick = DefaultTick
	}
	if o.MaxChunk <= 0 {
		o.MaxChunk = DefaultMaxChunk
	}
	if o.PortScan == 0 {
		o.PortScan = DefaultPortScan
	}
	if o.KillGrace <= 0 {
		o.KillGrace = DefaultKillGrace
	}
	if o.ExitDrain <= 0 {
		o.ExitDrain = DefaultExitDrain
	}
	if o.Rows == 0 || o.Cols == 0 {
		o.Rows, o.Cols = 24, 120
	}
	r := &Registry{o: o, procs: map[string]*process{}, execs: map[group]struct{}{}, quit: make(chan struct{})}
	r.spareReady = sync.NewCond(&r.mu)
	r.disp = newDispatcher(o.Observer, o.NewTicker(o.Tick), o.MaxChunk)
	if o.PortScan > 0 {
		r.bg.Add(1)
		go r.scanPorts()
	}
	return r
}

// environ is the sanitized environment plus extra variables.
func (r *Registry) environ(extra ...string) []string {
	env := SanitizeEnv(r.o.Env())
	return append(env, extra...)
}

// shellPath picks the shell once; call with r.mu held.
func (r *Registry) shellPath(env []string) string {
	if r.shell == "" {
		r.shell = r.o.Shell
		if r.shell == "" {
			r.shell = findInPath("bash", env)
		}
		if r.shell == "" {
			r.shell = "/bin/sh"
		}
	}
	return r.shell
}

func findInPath(name string, env []string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], "PATH="); ok {
			for _, dir := range filepath.SplitList(v) {
				p := filepath.Join(dir, name)
				if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
					return p
				}
			}
			break
		}
	}
	return ""
}

// Start runs command in dir (already checked by the caller: this package
// knows no workspace) under a new pseudo-terminal, as the leader of its own
// session and process group.
func (r *Registry) Start(command, dir string) (Info, error) { return r.start(command, dir, false) }

// StartUnconfined is Start outside the sandbox (still under the helper):
// the user chose so for this one process.
func (r *Registry) StartUnconfined(command, dir string) (Info, error) {
	return r.start(command, dir, true)
}

func (r *Registry) start(command, dir string, unconfined bool) (Info, error) {
	env := r.environ("TERM=xterm-256color")
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return Info{}, ErrClosed
	}
	f, tty, err := openPTY(r.o.Rows, r.o.Cols)
	if err != nil {
		return Info{}, err
	}
	l, err := r.launch(command, dir, env, [3]*os.File{tty, tty, tty}, true, unconfined)
	tty.Close()
	if err != nil {
		f.Close()
		return Info{}, err
	}
	pid := l.pid
	r.nextID++
	r.o.Ledger.add(l.g, command, dir)
	p := &process{
		id: "p" + strconv.Itoa(r.nextID), ring: NewRing(r.o.RingSize),
		g: l.g, pty: f, net: l.net,
		done: make(chan struct{}), rdone: make(chan struct{}),
		inf: Info{PID: pid, Command: command, Cwd: dir, Status: StatusRunning, StartedAt: time.Now(), Confined: l.policy != nil},
	}
	p.inf.ProcessID = p.id
	r.procs[p.id] = p
	r.order = append(r.order, p.id)
	r.disp.post(note{noteStarted, p})
	go p.read(f, func(ports []int) {
		if p.setPorts(nil, ports) {
			r.disp.post(note{noteUpdated, p})
		}
	})
	go p.wait(l.wait, r.o.ExitDrain, func() { r.disp.post(note{noteExited, p}) })
	go r.forget(l.g)
	return p.info(), nil
}

func (r *Registry) get(id string) (*process, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if p := r.procs[id]; p != nil {
		return p, nil
	}
	return nil, unknownProcess(id, slices.Clone(r.order))
}

// Info describes one process.
func (r *Registry) Info(id string) (Info, error) {
	p, err := r.get(id)
	if err != nil {
		return Info{}, err
	}
	return p.info(), nil
}

// List describes every process, in the order they started.
func (r *Registry) List() []Info {
	r.mu.Lock()
	ps := make([]*process, 0, len(r.order))
	for _, id := range r.order {
		ps = append(ps, r.procs[id])
	}
	r.mu.Unlock()
	out := make([]Info, 0, len(ps))
	for _, p := range ps {
		out = append(out, p.info())
	}
	return out
}

// Logs reads up to limit bytes of a process's output from absolute offset
// offset; a negative offset reads the last limit bytes.
func (r *Registry) Logs(id string, offset int64, limit int) (Logs, error) {
	p, err := r.get(id)
	if err != nil {
		return Logs{}, err
	}
	if limit <= 0 {
		limit = DefaultMaxChunk
	}
	if offset < 0 {
		_, end := p.ring.Bounds()
		offset = max(0, end-int64(limit))
		if s, _ := p.ring.Bounds(); offset < s {
			offset = s
		}
	}
	data, off, next, trunc := p.ring.ReadAt(offset, limit)
	in := p.info()
	return Logs{Content: data, Offset: off, NextOffset: next, Truncated: trunc, Status: in.Status, ExitCode: in.ExitCode}, nil
}

// Write sends input to the process's terminal as given: "\x03" interrupts
// the foreground job, "\x04" at the start of a line ends its input.
func (r *Registry) Write(id string, input []byte) (int, error) {
	p, err := r.get(id)
	if err != nil {
		return 0, err
	}
	return p.write(input)
}

// Resize sets the size of the process's terminal.
func (r *Registry) Resize(id string, rows, cols uint16) error {
	p, err := r.get(id)
	if err != nil {
		return err
	}
	p.mu.Lock()
	f, st := p.pty, p.inf.Status
	p.mu.Unlock()
	if st != StatusRunning || f == nil {
		return notRunning(id, st)
	}
	return resizePTY(f, rows, cols)
}

// Stop ends a process: SIGTERM to its whole group, KillGrace, then SIGKILL
// to what is left. It returns once the process ended. Stopping an ended
// process still kills what is left of its group (a background child).
func (r *Registry) Stop(id string) (Info, error) {
	p, err := r.get(id)
	if err != nil {
		return Info{}, err
	}
	r.stopAll([]*process{p}, nil)
	return p.info(), nil
}

// stopAll kills the groups of ps and gs together and waits (bounded) until
// every process of ps is reported ended.
//
// The group of an ended process is signalled only while it still has a
// member: a process group id cannot be reused while the group exists, but
// once it is empty its number may go to an unrelated process.
func (r *Registry) stopAll(ps []*process, gs []group) {
	var live []group
	for _, g := range gs {
		if alive(g) {
			live = append(live, g)
		}
	}
	for _, p := range ps {
		if p.inf.Restored { // immutable after creation
			continue // nothing runs
		}
		p.mu.Lock()
		running, gone := p.inf.Status == StatusRunning, p.groupGone
		p.stopping = p.stopping || running
		p.mu.Unlock()
		if !running && (gone || !alive(p.g)) {
			p.mu.Lock()
			p.groupGone = true
			p.mu.Unlock()
			continue
		}
		live = append(live, p.g)
	}
	killGroups(live, r.o.KillGrace)
	deadline := time.After(r.o.ExitDrain + 3*time.Second)
	for _, p := range ps {
		select {
		case <-p.done:
		case <-deadline:
		}
		select {
		case <-p.rdone:
		case <-time.After(50 * time.Millisecond):
			p.closePTY() // a process that left the group holds the terminal
		}
	}
}

// CloseAll kills every process group the registry started (running
// processes, what is left of ended ones, background children of Exec) and
// refuses new processes. It returns once they are gone or could not be
// killed within a bounded time. Safe to call more than once.
func (r *Registry) CloseAll() {
	r.mu.Lock()
	r.closed = true
	spareDone := r.dropSpare()
	holdDone := r.dropHolder()
	netDone := r.dropNet()
	var ps []*process
	for _, id := range r.order {
		if p := r.procs[id]; !p.inf.Restored {
			ps = append(ps, p)
		}
	}
	var gs []group
	for g := range r.execs {
		gs = append(gs, g)
	}
	r.mu.Unlock()
	awaitEnd(spareDone)
	awaitEnd(holdDone)
	awaitEnd(netDone)
	r.stopAll(ps, gs)
}

// Close is CloseAll, then delivers the last events and stops the
// registry's goroutines. The Observer is not called after Close returns.
func (r *Registry) Close() {
	r.CloseAll()
	r.closeOnce.Do(func() {
		r.refills.Wait() // a spare being started uses the lifeline
		r.mu.Lock()
		if r.lifeW != nil {
			r.lifeW.Close()
			r.lifeR.Close()
		}
		r.mu.Unlock()
		close(r.quit)
		r.bg.Wait()
		r.disp.stop()
	})
}

// scanPorts periodically looks up the TCP ports the running processes'
// groups listen on.
func (r *Registry) scanPorts() {
	defer r.bg.Done()
	t := time.NewTicker(r.o.PortScan)
	defer t.Stop()
	for {
		select {
		case <-r.quit:
			return
		case <-t.C:
		}
		r.pruneExecs()
		r.forwardPorts()
		var ps []*process
		var gs []group
		r.mu.Lock()
		for _, p := range r.procs {
			if p.running() {
				ps, gs = append(ps, p), append(gs, p.g)
			}
		}
		r.mu.Unlock()
		if len(ps) == 0 {
			continue
		}
		m := membersOf(gs)
		for _, p := range ps {
			ports := listeningPorts(m[p.g])
			if ports == nil {
				ports = []int{}
			}
			if p.setPorts(ports, nil) {
				r.disp.post(note{noteUpdated, p})
			}
		}
	}
}

// pruneExecs forgets the groups of Exec calls that have no process left.
func (r *Registry) pruneExecs() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for g := range r.execs {
		if !alive(g) {
			delete(r.execs, g)
		}
	}
}

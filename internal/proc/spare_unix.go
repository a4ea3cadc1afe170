//go:build unix

package proc

import (
	"bufio"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"

	"gatehouse/internal/sandbox"
	"gatehouse/internal/supervisor/wire"
)

// The spare helper started ahead of the next command, and the holder of a
// sandbox's namespaces that confined commands join.

// refill starts a spare helper for the next command, unless there is one;
// last, when set, is the policy of the command just started, whose key
// holder names the holder it joined (see ahead).
func (r *Registry) refill(last *sandbox.Policy, holder string) {
	r.mu.Lock()
	if r.closed || r.spare != nil || r.refilling {
		r.mu.Unlock()
		return
	}
	r.refilling = true
	r.refills.Add(1) // Close waits for it before closing the lifeline
	defer r.refills.Done()
	life, err := r.lifeline()
	r.mu.Unlock()
	var sp *helper
	if err == nil {
		// No environment: the command gets its own with its request.
		args, key := r.ahead(last, holder)
		if sp, err = r.startHelper(life, append(args, wire.SpareFlag), "/", []string{}, [3]*os.File{}, true); err == nil {
			sp.aheadKey = key
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.refilling = false
	defer r.spareReady.Broadcast()
	if err != nil {
		return
	}
	if r.closed {
		// Close waits for this refill: the spare must be gone by then.
		sp.discard()
		r.mu.Unlock()
		awaitEnd(sp.sup.done)
		r.mu.Lock()
		return
	}
	if r.spare != nil {
		sp.discard()
		return
	}
	r.spare = sp
}

// ahead are the policy flags a spare enters the sandbox's namespaces with
// ahead of its command: those of the last command's folder, when they use
// namespaces, and the holder it joins (a next command confined otherwise
// runs as without). A spare started while the last command runs (commands
// in a row) takes that command's policy, last, and the key of the holder
// it joined, holderKey, instead of building them again beside it; one
// started after it ended builds them anew (the command may have changed
// what they depend on, a .git it made). key is the HolderKey of the
// policy when the spare makes a bubblewrap of its own ahead (no holder to
// join), else "".
func (r *Registry) ahead(last *sandbox.Policy, holderKey string) (args []string, key string) {
	r.mu.Lock()
	dir, hold := r.lastDir, r.hold
	r.mu.Unlock()
	if dir == "" || r.o.Sandbox == nil {
		return nil, ""
	}
	p := last
	if p == nil {
		if p = r.o.Sandbox(dir); p != nil && p.ProxyPort != 0 { // as supervisorArgs does
			r.mu.Lock()
			r.netPolicy(p)
			r.mu.Unlock()
		}
	}
	if p == nil || !p.Namespaces() {
		return nil, ""
	}
	if holderKey == "" && p.Nsenter != "" && hold != nil {
		holderKey = p.HolderKey()
	}
	switch {
	case p.Nsenter == "":
		return p.Args(), p.HolderKey()
	case hold != nil && hold.key == holderKey:
		return append(p.Args(), wire.JoinFlag, strconv.Itoa(hold.pid)), ""
	}
	return nil, ""
}

// fits reports whether spare h may take a command confined by pol: one
// that made a bubblewrap ahead for a policy whose paths were replaced
// since (a denied .env removed and made again: the same flags, another
// file) would run it with the new file shown, so it is dropped.
func (h *helper) fits(pol *sandbox.Policy) bool {
	return h.aheadKey == "" || pol == nil || !pol.Namespaces() || pol.Nsenter != "" || pol.HolderKey() == h.aheadKey
}

// holder is a helper holding a sandbox's namespaces (see
// supervisor.HoldFlag) for the confined commands that join them.
type holder struct {
	h   *helper
	key string // sandbox.Policy.HolderKey of its policy
	pid int    // the process whose namespaces are joined
}

// holdStart bounds the wait for a holder's bubblewrap (the registry's lock
// is held meanwhile); past it, the command runs under a bubblewrap of its
// own.
const holdStart = 10 * time.Second

// holderFor returns the pid of a holder of pol's namespaces, started when
// the last one holds others (or ended); 0 when none could start: the
// command then runs under a bubblewrap of its own. Call with r.mu held.
func (r *Registry) holderFor(pol *sandbox.Policy) int {
	if pol == nil || !pol.Namespaces() || pol.Nsenter == "" {
		return 0
	}
	key := pol.HolderKey()
	if r.hold != nil && r.hold.key == key && r.hold.h.sup.running() {
		return r.hold.pid
	}
	r.dropHolder()
	if key == r.holdFailed {
		return 0 // it could not start for this policy: do not pay for it again
	}
	life, err := r.lifeline()
	if err != nil {
		return 0
	}
	h, err := r.startHelper(life, append([]string{wire.HoldFlag}, pol.Args()...), "/", []string{}, [3]*os.File{}, false)
	if err != nil {
		return 0
	}
	h.statR.SetReadDeadline(time.Now().Add(holdStart))
	kind, text := readStatus(bufio.NewReader(h.statR))
	h.statR.Close()
	pid, _ := strconv.Atoi(text)
	if kind != wire.MsgPID || pid <= 0 {
		h.sup.signal(syscall.SIGTERM)
		r.holdFailed = key
		return 0
	}
	r.hold = &holder{h: h, key: key, pid: pid}
	return pid
}

// dropHolder ends the holder, if any (commands that joined it keep its
// namespaces while they run), and returns a channel closed once it ended;
// call with r.mu held.
func (r *Registry) dropHolder() <-chan struct{} {
	if r.hold == nil {
		return nil
	}
	h := r.hold.h
	r.hold = nil
	h.sup.signal(syscall.SIGTERM)
	return h.sup.done
}

// dropSpare discards the spare helper and returns a channel closed once it
// ended (nil: there was none); call with r.mu held.
func (r *Registry) dropSpare() <-chan struct{} {
	sp := r.spare
	if sp == nil {
		return nil
	}
	sp.discard()
	r.spare = nil
	return sp.sup.done
}

// refillAfter is how long into a command the next spare starts when the
// command has not ended by then.
const refillAfter = 5 * time.Millisecond

// inARow is the gap under which a command counts as following the last
// one in a row (a script's), not after a pause (an agent's next command,
// after a model's turn).
const inARow = 10 * time.Millisecond

// spareGrace bounds the wait for a dropped spare at close: one that entered
// the sandbox's namespaces ends its bubblewrap first.
const spareGrace = 2 * time.Second

// awaitEnd waits (bounded) for a dropped spare to end.
func awaitEnd(done <-chan struct{}) {
	if done == nil {
		return
	}
	select {
	case <-done:
	case <-time.After(spareGrace):
	}
}

// scheduleRefill starts the next spare for a command just started with
// policy pol (holderKey: the holder it joined) and returns what to call
// once the command ended. The spare starts then, or refillAfter into a long
// command: a helper's start-up beside the command's own would slow the
// command on a machine with few cores. Commands in a row (a script's) start
// it at once instead, from pol: the next one comes as soon as this one ends
// and would wait for the spare.
func (r *Registry) scheduleRefill(pol *sandbox.Policy, holderKey string) (ended func()) {
	ended = func() { r.lastEnd.Store(time.Now().UnixNano()) }
	if end := r.lastEnd.Load(); end != 0 && time.Since(time.Unix(0, end)) < inARow {
		go r.refill(pol, holderKey)
		return ended
	}
	refill := sync.OnceFunc(func() { go r.refill(nil, "") })
	timer := time.AfterFunc(refillAfter, refill)
	return func() {
		r.lastEnd.Store(time.Now().UnixNano())
		timer.Stop()
		refill()
	}
}

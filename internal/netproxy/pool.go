package netproxy

import (
	"sync"
	"time"
)

// idlePool keeps server connections between requests, so that the next
// command's request to the same host:port skips the dial (curl runs once
// per connection): at most maxIdlePerAddr per host:port, each for
// idleUpstream at most. Its methods are safe for concurrent use.
type idlePool struct {
	mu   sync.Mutex
	idle map[string][]*idleUp // by host:port, the most recent last
}

type idleUp struct {
	up    *upstream
	timer *time.Timer // ends it after idleUpstream
}

const (
	maxIdlePerAddr = 4
	idleUpstream   = 30 * time.Second
)

// put keeps up, whose last answer was read to its end, for another
// request; release closes one the pool does not keep.
func (ip *idlePool) put(up *upstream, release func(*upstream)) {
	ip.mu.Lock()
	defer ip.mu.Unlock()
	if ip.idle == nil {
		ip.idle = map[string][]*idleUp{}
	}
	list := ip.idle[up.addr]
	if len(list) == maxIdlePerAddr {
		list[0].timer.Stop()
		release(list[0].up)
		list = append(list[:0], list[1:]...)
	}
	e := &idleUp{up: up}
	e.timer = time.AfterFunc(idleUpstream, func() {
		if ip.remove(e) {
			release(up)
		}
	})
	ip.idle[up.addr] = append(list, e)
}

// take returns a kept connection to addr that its server has not closed,
// or nil; it releases those found closed.
func (ip *idlePool) take(addr string, release func(*upstream)) *upstream {
	for {
		ip.mu.Lock()
		list := ip.idle[addr]
		if len(list) == 0 {
			ip.mu.Unlock()
			return nil
		}
		e := list[len(list)-1]
		ip.idle[addr] = list[:len(list)-1]
		ip.mu.Unlock()
		e.timer.Stop()
		if alive(e.up.c) {
			return e.up
		}
		release(e.up)
	}
}

// remove takes e out of the pool; false when it was gone already.
func (ip *idlePool) remove(e *idleUp) bool {
	ip.mu.Lock()
	defer ip.mu.Unlock()
	list := ip.idle[e.up.addr]
	for i, x := range list {
		if x == e {
			ip.idle[e.up.addr] = append(list[:i], list[i+1:]...)
			return true
		}
	}
	return false
}

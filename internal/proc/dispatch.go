package proc

import (
	"sync"
	"time"
	"unicode/utf8"
)

// Observer receives a registry's process events (see the package doc for
// the delivery rules).
//
// The registry calls its methods from one goroutine, never concurrently, in
// the order the events happened for each process. They must not block for
// long and must not call back into the registry's Close or CloseAll; calling
// Info, List or Logs is fine.
type Observer interface {
	// Started: a process started (Info.Status is running).
	Started(Info)
	// Output: new output of a process; at most one call per process per tick.
	Output(Chunk)
	// Exited: a process ended (after the Output carrying its last bytes).
	Exited(Info)
	// Updated: something else of a process changed (its ports).
	Updated(Info)
}

// Ticker is the clock of output coalescing; time.Ticker fits it through
// NewTimeTicker. Tests inject their own to drive ticks by hand.
type Ticker interface {
	C() <-chan time.Time
	Stop()
}

type timeTicker struct{ t *time.Ticker }

func (t timeTicker) C() <-chan time.Time { return t.t.C }
func (t timeTicker) Stop()               { t.t.Stop() }

// NewTimeTicker is the default Options.NewTicker.
func NewTimeTicker(d time.Duration) Ticker { return timeTicker{time.NewTicker(d)} }

type noteKind int

const (
	noteStarted noteKind = iota
	noteExited
	noteUpdated
)

type note struct {
	kind noteKind
	p    *process
}

// dispatcher turns process notes into Observer calls: started/updated right
// away, output once per tick per process, exited at the tick after the exit,
// after that tick's output.
type dispatcher struct {
	obs      Observer
	ticker   Ticker
	maxChunk int

	mu    sync.Mutex
	queue []note
	wake  chan struct{}
	done  chan struct{}
	ended chan struct{}

	// owned by the loop goroutine
	watched map[*process]*watch
}

type watch struct {
	sent        int64 // next offset to send
	exitPending bool
	exited      bool
}

func newDispatcher(obs Observer, t Ticker, maxChunk int) *dispatcher {
	d := &dispatcher{obs: obs, ticker: t, maxChunk: maxChunk,
		wake: make(chan struct{}, 1), done: make(chan struct{}), ended: make(chan struct{}),
		watched: map[*process]*watch{}}
	go d.loop()
	return d
}

// post queues a note; it never blocks and never drops.
func (d *dispatcher) post(n note) {
	d.mu.Lock()
	d.queue = append(d.queue, n)
	d.mu.Unlock()
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// stop ends the loop after one last flush of output and pending exits.
func (d *dispatcher) stop() {
	close(d.done)
	<-d.ended
}

func (d *dispatcher) loop() {
	defer close(d.ended)
	defer d.ticker.Stop()
	for {
		select {
		case <-d.wake:
			d.drain()
		case <-d.ticker.C():
			d.drain()
			d.tick()
		case <-d.done:
			d.drain()
			d.tick()
			return
		}
	}
}

func (d *dispatcher) drain() {
	d.mu.Lock()
	q := d.queue
	d.queue = nil
	d.mu.Unlock()
	for _, n := range q {
		switch n.kind {
		case noteStarted:
			start, _ := n.p.ring.Bounds()
			d.watched[n.p] = &watch{sent: start}
			d.obs.Started(n.p.info())
		case noteUpdated:
			if w := d.watched[n.p]; w != nil && !w.exited {
				d.obs.Updated(n.p.info())
			}
		case noteExited:
			if w := d.watched[n.p]; w != nil {
				w.exitPending = true
			}
		}
	}
}

func (d *dispatcher) tick() {
	for p, w := range d.watched {
		readerDone := p.readerDone()
		d.flush(p, w, readerDone)
		if w.exitPending {
			w.exitPending, w.exited = false, true
			d.obs.Exited(p.info())
		}
		if w.exited && readerDone {
			if _, end := p.ring.Bounds(); w.sent >= end {
				delete(d.watched, p)
			}
		}
	}
}

// flush sends at most one chunk: the output since the last one, or its last
// maxChunk bytes when the process wrote more than that since.
func (d *dispatcher) flush(p *process, w *watch, final bool) {
	_, end := p.ring.Bounds()
	if end <= w.sent {
		return
	}
	from := max(w.sent, end-int64(d.maxChunk))
	data, off, next, _ := p.ring.ReadAt(from, d.maxChunk)
	if off > w.sent { // skipped ahead: start on a rune boundary
		k := 0
		for k < len(data) && k < utf8.UTFMax && !utf8.RuneStart(data[k]) {
			k++
		}
		data, off = data[k:], off+int64(k)
	}
	if !final { // hold back a rune whose bytes have not all arrived
		cut := incompleteTail(data)
		data, next = data[:len(data)-cut], next-int64(cut)
	}
	if len(data) == 0 {
		return
	}
	w.sent = next
	d.obs.Output(Chunk{ProcessID: p.id, Offset: off, NextOffset: next, Data: string(data)})
}

// incompleteTail returns how many bytes at the end of b start a UTF-8
// sequence that is not complete yet (0 when b ends on a boundary or with
// invalid bytes, which wait for nothing).
func incompleteTail(b []byte) int {
	for k := 1; k <= utf8.UTFMax-1 && k <= len(b); k++ {
		c := b[len(b)-k]
		if c < utf8.RuneSelf {
			return 0
		}
		if utf8.RuneStart(c) {
			if need := seqLen(c); need > k {
				return k
			}
			return 0
		}
	}
	return 0
}

func seqLen(c byte) int {
	switch {
	case c&0xE0 == 0xC0:
		return 2
	case c&0xF0 == 0xE0:
		return 3
	case c&0xF8 == 0xF0:
		return 4
	}
	return 1
}

// nopObserver drops every event.
type nopObserver struct{}

func (nopObserver) Started(Info) {}
func (nopObserver) Output(Chunk) {}
func (nopObserver) Exited(Info)  {}
func (nopObserver) Updated(Info) {}

// Package events carries backend events to the UI: one Bus, one Sink.
//
// Delivery rules:
//
//   - Every published event is delivered exactly once, in publish order,
//     except that message.delta and process.output events may be merged
//     (coalesced) with later events of the same kind and key. Nothing is
//     ever dropped: a slow sink slows the publisher down instead.
//   - Coalescing keys: message.delta by (session, turn, messageId), texts
//     concatenated; process.output by (session, turn, processId), data
//     concatenated only when the offsets are contiguous (otherwise the
//     pending output is delivered first and the new one starts afresh).
//   - A coalesced event waits at most Interval after the first event merged
//     into it. Any other event first flushes everything pending, so the UI
//     never sees, say, message.done before the last delta of that message.
//     A pending event whose text reaches MaxPendingBytes is flushed at once.
//   - Seq is assigned when an event is delivered, after coalescing: 1, 2, 3,
//     ... with no gap for the run of the Bus, so a gap on the UI side always
//     means a lost event (and a Snapshot resync). Publishers leave Seq zero;
//     whatever they set is overwritten.
//   - The sink is called without the Bus's lock, by one goroutine at a time,
//     in seq order: the publisher that finds no delivery running delivers
//     what is queued (its own event and any published meanwhile) until the
//     queue is empty; a publisher that finds one running queues its event
//     and returns at once. So a slow sink delays the goroutine delivering,
//     never the other publishers (nothing is dropped: the queue grows).
//     Flush and Close return once everything published before them was
//     handed to the sink.
//
// Coalesced payloads must be passed by value (protocol.MessageDeltaPayload,
// not a pointer); other payload forms are delivered, just not merged.
package events

import (
	"sync"
	"time"

	"gatehouse/internal/protocol"
)

// Sink receives the event stream.
//
// Emit is called by one goroutine at a time, in seq order, without the
// Bus's lock: it may Publish (the event is delivered after the current
// one), but must not call Flush or Close, which would wait for it. It should
// return quickly (hand the event to the UI; never wait for the UI to draw
// it, nor for a disk). It must not modify the event's payload.
type Sink interface {
	Emit(protocol.Event)
}

// SinkFunc adapts a function to Sink.
type SinkFunc func(protocol.Event)

// Emit calls f(e).
func (f SinkFunc) Emit(e protocol.Event) { f(e) }

// Fanout returns a Sink that emits to each sink in order (for example the
// Wails sink and the snapshot state).
func Fanout(sinks ...Sink) Sink {
	return SinkFunc(func(e protocol.Event) {
		for _, s := range sinks {
			s.Emit(e)
		}
	})
}

// Clock schedules the delayed flush. AfterFunc runs f once after d, on its
// own goroutine, unless stop is called first; stop reports whether it did
// prevent f from running. time.AfterFunc fits; tests inject a manual clock.
type Clock interface {
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

type realClock struct{}

func (realClock) AfterFunc(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, f).Stop
}

// Options tune a Bus; zero values take the defaults.
type Options struct {
	// Interval is the longest a coalesced event waits (default 33ms).
	Interval time.Duration
	// MaxPendingBytes flushes a coalesced event whose text reaches it
	// (default 64 KiB).
	MaxPendingBytes int
	// Clock schedules the flush (default: the real clock).
	Clock Clock
}

// Stats counts what the Bus did.
type Stats struct {
	Published uint64 // events handed to Publish
	Delivered uint64 // events given to the sink (== last seq)
	Merged    uint64 // events merged into an earlier pending one
}

// Bus assigns seq numbers, coalesces and delivers events to its sink.
// All methods are safe for concurrent use.
type Bus struct {
	sink     Sink
	interval time.Duration
	maxBytes int
	clock    Clock

	mu        sync.Mutex
	idle      *sync.Cond       // no delivery running and nothing queued
	out       []protocol.Event // numbered, not yet handed to the sink
	busy      bool             // a goroutine is handing out to the sink
	delivered uint64           // seq of the last event handed to the sink
	seq       uint64
	pending   []*protocol.Event // in order of first arrival
	byKey     map[key]*protocol.Event
	stopTimer func() bool
	closed    bool
	stats     Stats
}

type key struct {
	typ                protocol.EventType
	session, turn, sub string
}

// New returns a Bus delivering to sink.
func New(sink Sink, opts Options) *Bus {
	if opts.Interval <= 0 {
		opts.Interval = 33 * time.Millisecond
	}
	if opts.MaxPendingBytes <= 0 {
		opts.MaxPendingBytes = 64 << 10
	}
	if opts.Clock == nil {
		opts.Clock = realClock{}
	}
	b := &Bus{sink: sink, interval: opts.Interval, maxBytes: opts.MaxPendingBytes,
		clock: opts.Clock, byKey: map[key]*protocol.Event{}}
	b.idle = sync.NewCond(&b.mu)
	return b
}

// deliver hands the queued events to the sink, outside the lock, unless
// another goroutine is doing so (it will hand these too). b.mu is held on
// entry and on return.
func (b *Bus) deliver() {
	if b.busy {
		return
	}
	b.busy = true
	for len(b.out) > 0 {
		batch := b.out
		b.out = nil
		b.mu.Unlock()
		for _, e := range batch {
			b.sink.Emit(e)
		}
		b.mu.Lock()
		b.delivered = batch[len(batch)-1].Seq
	}
	b.busy = false
	b.idle.Broadcast()
}

// waitDelivered waits until every event numbered so far was handed to the
// sink. b.mu is held.
func (b *Bus) waitDelivered() {
	b.deliver()
	for b.busy || len(b.out) > 0 {
		b.idle.Wait()
	}
}

// Publish hands e to the Bus. Its Seq is ignored.
func (b *Bus) Publish(e protocol.Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	defer b.deliver()
	b.stats.Published++
	e.Seq = 0
	if b.closed {
		b.flushLocked()
		b.deliverLocked(e)
		return
	}
	switch p := e.Payload.(type) {
	case protocol.MessageDeltaPayload:
		if e.Type == protocol.MessageDelta {
			b.coalesceLocked(e, p.MessageID, len(p.Text), func(prev *protocol.Event) bool {
				q := prev.Payload.(protocol.MessageDeltaPayload)
				q.Text += p.Text
				prev.Payload = q
				return len(q.Text) >= b.maxBytes
			})
			return
		}
	case protocol.ProcessOutputPayload:
		if e.Type == protocol.ProcessOutput {
			b.coalesceOutputLocked(e, p)
			return
		}
	}
	b.flushLocked()
	b.deliverLocked(e)
}

func (b *Bus) coalesceOutputLocked(e protocol.Event, p protocol.ProcessOutputPayload) {
	k := key{e.Type, e.SessionID, e.TurnID, p.ProcessID}
	if prev, ok := b.byKey[k]; ok {
		q := prev.Payload.(protocol.ProcessOutputPayload)
		if outputEnd(q) != p.Offset {
			b.flushLocked() // not contiguous: deliver what we have first
		}
	}
	b.coalesceLocked(e, p.ProcessID, len(p.Data), func(prev *protocol.Event) bool {
		q := prev.Payload.(protocol.ProcessOutputPayload)
		q.Data += p.Data
		q.NextOffset = outputEnd(p)
		prev.Payload = q
		return len(q.Data) >= b.maxBytes
	})
}

// coalesceLocked merges e into the pending event of its key with merge, or
// makes it pending. size is the length of e's own text.
func (b *Bus) coalesceLocked(e protocol.Event, sub string, size int, merge func(prev *protocol.Event) (full bool)) {
	k := key{e.Type, e.SessionID, e.TurnID, sub}
	if prev, ok := b.byKey[k]; ok {
		b.stats.Merged++
		if merge(prev) {
			b.flushLocked()
		}
		return
	}
	ev := e
	b.pending = append(b.pending, &ev)
	b.byKey[k] = &ev
	if size >= b.maxBytes {
		b.flushLocked()
		return
	}
	if b.stopTimer == nil {
		b.stopTimer = b.clock.AfterFunc(b.interval, b.Flush)
	}
}

// Flush delivers every pending coalesced event now, and returns once every
// event published before it was handed to the sink.
func (b *Bus) Flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.flushLocked()
	b.waitDelivered()
}

func (b *Bus) flushLocked() {
	if b.stopTimer != nil {
		b.stopTimer()
		b.stopTimer = nil
	}
	if len(b.pending) == 0 {
		return
	}
	pending := b.pending
	b.pending = nil
	clear(b.byKey)
	for _, e := range pending {
		b.deliverLocked(*e)
	}
}

func (b *Bus) deliverLocked(e protocol.Event) {
	b.seq++
	b.stats.Delivered++
	e.Seq = b.seq
	b.out = append(b.out, e)
}

// Close flushes what is pending and stops the timer. Events published after
// Close are delivered at once, without coalescing.
func (b *Bus) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.flushLocked()
	b.closed = true
	b.waitDelivered()
}

// LastSeq is the seq of the last event handed to the sink (0 before the
// first).
func (b *Bus) LastSeq() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.delivered
}

// Stats returns the counters.
func (b *Bus) Stats() Stats {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.stats
}

// outputEnd is the absolute offset just after p's data.
func outputEnd(p protocol.ProcessOutputPayload) int64 {
	if p.NextOffset > 0 {
		return p.NextOffset
	}
	return p.Offset + int64(len(p.Data))
}

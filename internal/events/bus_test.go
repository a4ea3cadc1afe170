package events

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"gatehouse/internal/protocol"
)

// manualClock runs scheduled functions only when the test says so.
type manualClock struct {
	mu        sync.Mutex
	scheduled []func()
	calls     int
}

func (c *manualClock) AfterFunc(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	i := len(c.scheduled)
	c.scheduled = append(c.scheduled, f)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		stopped := c.scheduled[i] != nil
		c.scheduled[i] = nil
		return stopped
	}
}

// fire runs every scheduled, not stopped function.
func (c *manualClock) fire() {
	c.mu.Lock()
	fs := c.scheduled
	c.scheduled = make([]func(), len(fs))
	c.mu.Unlock()
	for _, f := range fs {
		if f != nil {
			f()
		}
	}
}

type recorder struct {
	mu     sync.Mutex
	events []protocol.Event
}

func (r *recorder) Emit(e protocol.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func (r *recorder) all() []protocol.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]protocol.Event(nil), r.events...)
}

func delta(session, msg, text string) protocol.Event {
	return protocol.Event{SessionID: session, TurnID: "t1", Type: protocol.MessageDelta,
		Payload: protocol.MessageDeltaPayload{MessageID: msg, Text: text}}
}

func output(proc string, off int64, data string) protocol.Event {
	return protocol.Event{SessionID: "s", Type: protocol.ProcessOutput,
		Payload: protocol.ProcessOutputPayload{ProcessID: proc, Offset: off, Data: data}}
}

func newBus(t *testing.T) (*Bus, *recorder, *manualClock) {
	t.Helper()
	rec, clk := &recorder{}, &manualClock{}
	return New(rec, Options{Clock: clk}), rec, clk
}

func checkSeqs(t *testing.T, evs []protocol.Event) {
	t.Helper()
	for i, e := range evs {
		if e.Seq != uint64(i+1) {
			t.Fatalf("event %d has seq %d, want %d", i, e.Seq, i+1)
		}
	}
}

func TestDeltasCoalescePerMessageOnTick(t *testing.T) {
	bus, rec, clk := newBus(t)
	bus.Publish(delta("s", "A", "Hel"))
	bus.Publish(delta("s", "A", "lo "))
	bus.Publish(delta("s", "B", "other"))
	bus.Publish(delta("s", "A", "there"))
	if n := len(rec.all()); n != 0 {
		t.Fatalf("%d events delivered before the tick", n)
	}
	if clk.calls != 1 {
		t.Fatalf("flush scheduled %d times, want once per batch", clk.calls)
	}
	clk.fire()
	evs := rec.all()
	checkSeqs(t, evs)
	if len(evs) != 2 {
		t.Fatalf("got %d events: %+v", len(evs), evs)
	}
	if p := evs[0].Payload.(protocol.MessageDeltaPayload); p.MessageID != "A" || p.Text != "Hello there" {
		t.Errorf("first = %+v", p)
	}
	if p := evs[1].Payload.(protocol.MessageDeltaPayload); p.MessageID != "B" || p.Text != "other" {
		t.Errorf("second = %+v", p)
	}
	if s := bus.Stats(); s.Published != 4 || s.Delivered != 2 || s.Merged != 2 {
		t.Errorf("stats %+v", s)
	}
	if bus.LastSeq() != 2 {
		t.Errorf("LastSeq = %d", bus.LastSeq())
	}
	// A new batch schedules a new flush.
	bus.Publish(delta("s", "A", "!"))
	if clk.calls != 2 {
		t.Fatalf("second batch: %d schedules", clk.calls)
	}
}

func TestOtherEventFlushesPendingFirst(t *testing.T) {
	bus, rec, _ := newBus(t)
	bus.Publish(delta("s", "A", "Hel"))
	bus.Publish(delta("s", "A", "lo"))
	bus.Publish(protocol.Event{SessionID: "s", Type: protocol.MessageDone,
		Payload: protocol.MessageDonePayload{MessageID: "A", Text: "Hello"}})
	evs := rec.all()
	checkSeqs(t, evs)
	if len(evs) != 2 || evs[0].Type != protocol.MessageDelta || evs[1].Type != protocol.MessageDone {
		t.Fatalf("got %+v", evs)
	}
	if evs[0].Payload.(protocol.MessageDeltaPayload).Text != "Hello" {
		t.Fatalf("delta %+v", evs[0].Payload)
	}
}

func TestKeysKeepSessionsAndTurnsApart(t *testing.T) {
	bus, rec, _ := newBus(t)
	bus.Publish(delta("s1", "A", "x"))
	bus.Publish(delta("s2", "A", "y"))
	other := delta("s1", "A", "z")
	other.TurnID = "t2"
	bus.Publish(other)
	bus.Flush()
	if evs := rec.all(); len(evs) != 3 {
		t.Fatalf("got %d events, want 3 separate ones", len(evs))
	}
}

func TestProcessOutputMergesOnlyContiguous(t *testing.T) {
	bus, rec, _ := newBus(t)
	bus.Publish(output("p1", 0, "abc"))
	bus.Publish(output("p1", 3, "def"))
	bus.Publish(output("p1", 100, "zz")) // gap: the reader fell behind
	bus.Publish(output("p1", 102, "!"))
	bus.Flush()
	evs := rec.all()
	checkSeqs(t, evs)
	if len(evs) != 2 {
		t.Fatalf("got %+v", evs)
	}
	a := evs[0].Payload.(protocol.ProcessOutputPayload)
	b := evs[1].Payload.(protocol.ProcessOutputPayload)
	if a.Offset != 0 || a.Data != "abcdef" || b.Offset != 100 || b.Data != "zz!" {
		t.Fatalf("got %+v, %+v", a, b)
	}
}

func TestLargePendingFlushesAtOnce(t *testing.T) {
	rec, clk := &recorder{}, &manualClock{}
	bus := New(rec, Options{Clock: clk, MaxPendingBytes: 8})
	bus.Publish(delta("s", "A", "1234"))
	bus.Publish(delta("s", "A", "5678"))
	if evs := rec.all(); len(evs) != 1 || evs[0].Payload.(protocol.MessageDeltaPayload).Text != "12345678" {
		t.Fatalf("got %+v", evs)
	}
	bus.Publish(delta("s", "A", strings.Repeat("x", 9)))
	if evs := rec.all(); len(evs) != 2 {
		t.Fatalf("an oversized single delta waited: %+v", evs)
	}
}

func TestPointerPayloadDeliveredNotMerged(t *testing.T) {
	bus, rec, _ := newBus(t)
	p := &protocol.MessageDeltaPayload{MessageID: "A", Text: "x"}
	bus.Publish(protocol.Event{Type: protocol.MessageDelta, Payload: p})
	bus.Publish(protocol.Event{Type: protocol.MessageDelta, Payload: p})
	if n := len(rec.all()); n != 2 {
		t.Fatalf("%d delivered", n)
	}
}

func TestCloseFlushesAndLaterEventsGoStraightThrough(t *testing.T) {
	bus, rec, clk := newBus(t)
	bus.Publish(delta("s", "A", "x"))
	bus.Close()
	if n := len(rec.all()); n != 1 {
		t.Fatalf("Close left %d delivered", n)
	}
	bus.Publish(delta("s", "A", "y"))
	if n := len(rec.all()); n != 2 {
		t.Fatalf("after Close: %d delivered", n)
	}
	clk.fire() // a stopped flush does nothing
	checkSeqs(t, rec.all())
}

// Whatever mix is published concurrently, nothing is lost, seqs have no gap,
// and per-key text arrives whole and in order.
func TestConcurrentPublishersLoseNothing(t *testing.T) {
	bus, rec, clk := newBus(t)
	const writers, per = 4, 200
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			msg := fmt.Sprintf("m%d", w)
			for i := 0; i < per; i++ {
				bus.Publish(delta("s", msg, fmt.Sprintf("%d,", i)))
				if i%17 == 0 {
					bus.Publish(protocol.Event{Type: protocol.ToolStarted,
						Payload: protocol.ToolStartedPayload{CallID: fmt.Sprintf("%s-%d", msg, i)}})
				}
				if i%50 == 0 {
					clk.fire()
				}
			}
		}(w)
	}
	wg.Wait()
	bus.Flush()
	evs := rec.all()
	checkSeqs(t, evs)
	texts := map[string]string{}
	tools := 0
	for _, e := range evs {
		switch p := e.Payload.(type) {
		case protocol.MessageDeltaPayload:
			texts[p.MessageID] += p.Text
		case protocol.ToolStartedPayload:
			tools++
		}
	}
	var want strings.Builder
	for i := 0; i < per; i++ {
		fmt.Fprintf(&want, "%d,", i)
	}
	for w := 0; w < writers; w++ {
		if got := texts[fmt.Sprintf("m%d", w)]; got != want.String() {
			t.Errorf("m%d text mangled: %.60q...", w, got)
		}
	}
	if wantTools := writers * ((per + 16) / 17); tools != wantTools {
		t.Errorf("%d tool events, want %d", tools, wantTools)
	}
}

// With the real clock a pending delta is delivered without anyone flushing.
func TestRealClockFlushes(t *testing.T) {
	got := make(chan protocol.Event, 1)
	bus := New(SinkFunc(func(e protocol.Event) { got <- e }), Options{Interval: time.Millisecond})
	bus.Publish(delta("s", "A", "hi"))
	select {
	case e := <-got:
		if e.Seq != 1 || e.Payload.(protocol.MessageDeltaPayload).Text != "hi" {
			t.Fatalf("got %+v", e)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("pending delta never delivered")
	}
}

func TestFanout(t *testing.T) {
	a, b := &recorder{}, &recorder{}
	bus := New(Fanout(a, b), Options{Clock: &manualClock{}})
	bus.Publish(protocol.Event{Type: protocol.WatchDegraded, Payload: protocol.WatchDegradedPayload{Reason: "x"}})
	if len(a.all()) != 1 || len(b.all()) != 1 {
		t.Fatal("fanout did not reach both sinks")
	}
}

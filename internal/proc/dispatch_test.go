//go:build linux

package proc

import (
	"strings"
	"testing"
	"time"
)

func TestOutputCoalescedToOneEventPerTick(t *testing.T) {
	ft := newFakeTicker()
	rec := &recorder{}
	r := newReg(t, Options{Observer: rec, NewTicker: func(time.Duration) Ticker { return ft }, PortScan: -1})
	in, err := r.Start("yes flood", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p, _ := r.get(in.ProcessID)
	// The process floods; without a tick nothing but started is delivered.
	waitFor(t, 10*time.Second, "a flood of output", func() bool { _, end := p.ring.Bounds(); return end > 1<<20 })
	if ev, _, _ := rec.snapshot(); len(ev) != 1 || ev[0] != "started p1" {
		t.Fatalf("events before any tick: %v", ev)
	}
	const ticks = 5
	for range ticks {
		ft.tick(t)
		time.Sleep(20 * time.Millisecond)
	}
	ft.tick(t) // the dispatcher finished handling the previous ticks
	_, chunks, _ := rec.snapshot()
	if len(chunks) < 1 || len(chunks) > ticks+1 {
		t.Fatalf("%d output events for %d ticks", len(chunks), ticks+1)
	}
	prev := int64(0)
	for _, c := range chunks {
		if c.Offset < prev || c.NextOffset <= c.Offset || !strings.Contains(c.Data, "flood\r\n") {
			t.Fatalf("chunk %d..%d after %d: %.40q", c.Offset, c.NextOffset, prev, c.Data)
		}
		prev = c.NextOffset
	}
	if _, end := p.ring.Bounds(); end < int64(len(chunks))*64<<10 {
		t.Fatalf("the flood wrote only %d bytes", end)
	}
}

func TestExitedComesAfterLastOutput(t *testing.T) {
	ft := newFakeTicker()
	rec := &recorder{}
	r := newReg(t, Options{Observer: rec, NewTicker: func(time.Duration) Ticker { return ft }, PortScan: -1})
	in, err := r.Start("printf 'héllo wörld'; exit 7", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	waitEnded(t, r, in.ProcessID)
	ft.tick(t)
	ft.tick(t)
	ev, chunks, infos := rec.snapshot()
	want := []string{"started p1", "output p1", "exited p1"}
	if strings.Join(ev, ",") != strings.Join(want, ",") {
		t.Fatalf("events %v, want %v", ev, want)
	}
	if chunks[0].Data != "héllo wörld" || chunks[0].Offset != 0 || chunks[0].NextOffset != int64(len("héllo wörld")) {
		t.Fatalf("chunk %+v", chunks[0])
	}
	if last := infos[len(infos)-1]; last.ExitCode == nil || *last.ExitCode != 7 {
		t.Fatalf("exited info %+v", last)
	}
}

func TestIncompleteTail(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{
		{"abc", 0}, {"ab\xc3", 1}, {"ab\xc3\xa9", 0}, {"\xe2\x82", 2}, {"\xe2\x82\xac", 0},
		{"x\xf0\x9f\x98", 3}, {"\xf0\x9f\x98\x80", 0}, {"\x80", 0}, {"", 0},
	} {
		if got := incompleteTail([]byte(c.in)); got != c.want {
			t.Errorf("incompleteTail(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}

func TestChunksHoldBackSplitRunes(t *testing.T) {
	ft := newFakeTicker()
	rec := &recorder{}
	r := newReg(t, Options{Observer: rec, NewTicker: func(time.Duration) Ticker { return ft }, PortScan: -1})
	// The euro sign's bytes arrive in two writes, 300 ms apart.
	in, err := r.Start(`printf 'a\342'; sleep 0.3; printf '\202\254b'; sleep 30`, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p, _ := r.get(in.ProcessID)
	waitFor(t, 5*time.Second, "the first bytes", func() bool { _, e := p.ring.Bounds(); return e == 2 })
	ft.tick(t)
	waitFor(t, 5*time.Second, "the last bytes", func() bool { _, e := p.ring.Bounds(); return e == 5 })
	ft.tick(t)
	ft.tick(t)
	_, chunks, _ := rec.snapshot()
	if len(chunks) != 2 || chunks[0].Data != "a" || chunks[1].Data != "€b" || chunks[1].Offset != 1 {
		t.Fatalf("chunks %+v", chunks)
	}
}

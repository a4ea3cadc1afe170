package proc

import (
	"bytes"
	"testing"
)

func TestRingOffsets(t *testing.T) {
	r := NewRing(8)
	r.Write([]byte("abcde"))
	data, off, next, trunc := r.ReadAt(0, 100)
	if string(data) != "abcde" || off != 0 || next != 5 || trunc {
		t.Fatalf("got %q %d %d %v", data, off, next, trunc)
	}
	r.Write([]byte("fghij")) // wraps: holds "cdefghij" at [2,10)
	if s, e := r.Bounds(); s != 2 || e != 10 {
		t.Fatalf("bounds %d %d", s, e)
	}
	data, off, next, trunc = r.ReadAt(5, 3)
	if string(data) != "fgh" || off != 5 || next != 8 || trunc {
		t.Fatalf("middle: got %q %d %d %v", data, off, next, trunc)
	}
	data, off, next, trunc = r.ReadAt(0, 100)
	if string(data) != "cdefghij" || off != 2 || next != 10 || !trunc {
		t.Fatalf("fell behind: got %q %d %d %v", data, off, next, trunc)
	}
	data, off, next, trunc = r.ReadAt(50, 10)
	if len(data) != 0 || off != 10 || next != 10 || trunc {
		t.Fatalf("past end: got %q %d %d %v", data, off, next, trunc)
	}
	r.Write([]byte("0123456789ABCDEFGHIJ")) // bigger than the ring
	data, off, next, trunc = r.ReadAt(10, 100)
	if string(data) != "CDEFGHIJ" || off != 22 || next != 30 || !trunc {
		t.Fatalf("big write: got %q %d %d %v", data, off, next, trunc)
	}
}

func TestRingRestoreKeepsOffsets(t *testing.T) {
	r := NewRing(4)
	r.restore(100, []byte("xyz"))
	data, off, next, trunc := r.ReadAt(0, 10)
	if string(data) != "xyz" || off != 100 || next != 103 || !trunc {
		t.Fatalf("got %q %d %d %v", data, off, next, trunc)
	}
	r.Write([]byte("12"))
	data, off, _, _ = r.ReadAt(100, 10)
	if string(data) != "yz12" || off != 101 {
		t.Fatalf("after write: got %q %d", data, off)
	}
}

func BenchmarkRingWrite(b *testing.B) {
	r := NewRing(DefaultRingSize)
	p := bytes.Repeat([]byte("x"), 64<<10)
	b.SetBytes(int64(len(p)))
	for b.Loop() {
		r.Write(p)
	}
}

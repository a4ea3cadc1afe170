package proc

import "sync"

// Ring is a bounded byte buffer addressed by absolute offsets: the n-th byte
// ever written has offset n. It keeps the last Size() bytes; older bytes are
// dropped, and a reader asking for them learns it fell behind.
//
// A Ring is safe for one writer and any number of concurrent readers.
type Ring struct {
	mu   sync.Mutex
	buf  []byte
	end  int64 // absolute offset one past the last byte written
	base int64 // absolute offset of the first byte ever kept (Restore)
}

// NewRing returns a ring keeping the last size bytes (size > 0).
func NewRing(size int) *Ring {
	if size <= 0 {
		panic("proc: ring size must be positive")
	}
	return &Ring{buf: make([]byte, size)}
}

// Size is the capacity in bytes.
func (r *Ring) Size() int { return len(r.buf) }

// Write appends p, dropping the oldest bytes when full. It never fails.
func (r *Ring) Write(p []byte) (int, error) {
	n := len(p)
	r.mu.Lock()
	defer r.mu.Unlock()
	size := int64(len(r.buf))
	if int64(len(p)) > size {
		r.end += int64(len(p)) - size
		p = p[len(p)-int(size):]
	}
	for len(p) > 0 {
		i := int(r.end % size)
		c := copy(r.buf[i:], p)
		p = p[c:]
		r.end += int64(c)
	}
	return n, nil
}

// Bounds returns the absolute offsets [start, end) of the bytes still held.
func (r *Ring) Bounds() (start, end int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.start(), r.end
}

func (r *Ring) start() int64 {
	s := r.end - int64(len(r.buf))
	if s < r.base {
		s = r.base
	}
	if s < 0 {
		s = 0
	}
	return s
}

// ReadAt copies up to limit bytes starting at absolute offset off. When off
// is older than what the ring still holds, reading starts at the oldest byte
// held and truncated is true; an offset past the end reads nothing at the end.
// It returns the bytes, the offset they start at, and the offset that follows.
func (r *Ring) ReadAt(off int64, limit int) (data []byte, start, next int64, truncated bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.start()
	if off < s {
		off, truncated = s, true
	}
	if off > r.end {
		off = r.end
	}
	n := r.end - off
	if limit >= 0 && n > int64(limit) {
		n = int64(limit)
	}
	data = make([]byte, n)
	size := int64(len(r.buf))
	for got := int64(0); got < n; {
		i := (off + got) % size
		got += int64(copy(data[got:], r.buf[i:min(size, i+n-got)]))
	}
	return data, off, off + n, truncated
}

// restore makes an empty ring hold data as the bytes at [off, off+len(data)).
func (r *Ring) restore(off int64, data []byte) {
	r.mu.Lock()
	r.end, r.base = off, off
	r.mu.Unlock()
	r.Write(data)
}

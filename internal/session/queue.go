package session

import (
	"sync"
	"time"

	"gatehouse/internal/proc"
	"gatehouse/internal/protocol"
)

// Queue writes a session's log off its callers' path (the event delivery
// that finishes transcript items, the gate recording a decision): its
// methods return once the record is queued, and one goroutine at a time
// writes what has queued since its last write as one batch: one write call,
// then one fsync. Records land in the order they were queued.
//
// Durability: a crash loses at most the batch being written and the records
// queued after it; every line of an earlier batch is on disk, whole, and a
// torn last line is skipped by Load. Flush returns once everything queued
// before it is on disk (or failed). A failed write is reported by the next
// call, by Flush and by Close; the records of a failed batch are dropped.
type Queue struct {
	log *Log

	mu      sync.Mutex
	changed *sync.Cond // a batch was written, or the queue closed
	recs    []Record
	writing bool
	closed  bool
	err     error
	queued  uint64 // records queued so far
	written uint64 // records whose batch finished (written or failed)
}

// Queue returns a queue writing to l. Close it instead of l: it writes
// what is queued, then closes l.
func (l *Log) Queue() *Queue {
	q := &Queue{log: l}
	q.changed = sync.NewCond(&q.mu)
	return q
}

// AppendItem queues a finished transcript item (Log.AppendItem).
func (q *Queue) AppendItem(it protocol.TranscriptItem) error { return q.add(itemRecord(it)) }

// Append queues a record of another type (Log.Append); v is marshalled
// now, so the caller may change it afterwards.
func (q *Queue) Append(typ RecordType, v any) error {
	rec, err := dataRecord(typ, v)
	if err != nil {
		return err
	}
	return q.add(rec)
}

// SaveProcesses queues the session's processes (Log.SaveProcesses).
func (q *Queue) SaveProcesses(saved []proc.Saved) error {
	if len(saved) == 0 {
		return nil
	}
	return q.add(Record{Type: RecordProcesses, Processes: saved, AtMs: time.Now().UnixMilli()})
}

func (q *Queue) add(rec Record) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return ErrClosed
	}
	err := q.err
	q.err = nil
	q.recs = append(q.recs, rec)
	q.queued++
	if !q.writing {
		q.writing = true
		go q.write()
	}
	return err
}

// write writes batches until the queue is empty.
func (q *Queue) write() {
	q.mu.Lock()
	for len(q.recs) > 0 {
		batch := q.recs
		q.recs = nil
		q.mu.Unlock()
		err := q.log.writeBatch(batch)
		q.mu.Lock()
		if err != nil && q.err == nil {
			q.err = err
		}
		q.written += uint64(len(batch))
		q.changed.Broadcast()
	}
	q.writing = false
	q.changed.Broadcast()
	q.mu.Unlock()
}

// Flush waits until every record queued before it is written, and returns
// the first write error not reported yet.
func (q *Queue) Flush() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	for target := q.queued; q.written < target; {
		q.changed.Wait()
	}
	err := q.err
	q.err = nil
	return err
}

// Close writes what is queued, then closes the log. Later calls return
// ErrClosed; Close may be called more than once.
func (q *Queue) Close() error {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	err := q.Flush()
	if cerr := q.log.Close(); err == nil {
		err = cerr
	}
	return err
}

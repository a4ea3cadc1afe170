package watch

import (
	"log/slog"
	"sync"
)

// Live is a workspace watched live: the Watcher and the Tracker it feeds,
// wired in the one order that works (the tracker remembers the first walk,
// and observes each batch before anyone else hears of it). The window keeps
// one per open workspace, shared by its sessions; a headless session opens
// its own. Safe for concurrent use.
type Live struct {
	W *Watcher
	T *Tracker

	mu     sync.Mutex
	reason string // why watching is degraded, "" when it is not
}

// LiveOptions tune OpenLive; every field may be zero.
type LiveOptions struct {
	Log *slog.Logger
	// OnBatch hears each batch after the tracker has observed it (the
	// window publishes fs.changed).
	OnBatch func([]Change)
	// OnDegraded hears why watching became partial (too many folders).
	OnDegraded func(reason string)
}

// OpenLive starts watching root (an existing folder) and tracking what
// changes in it. Stop releases it.
func OpenLive(root string, o LiveOptions) (*Live, error) {
	l := &Live{T: NewTracker(root, TrackerOptions{})}
	var err error
	l.W, err = New(root, Options{
		Log:    o.Log,
		OnFile: l.T.Remember,
		OnDegraded: func(reason string) {
			l.mu.Lock()
			l.reason = reason
			l.mu.Unlock()
			if o.OnDegraded != nil {
				o.OnDegraded(reason)
			}
		},
	})
	if err != nil {
		return nil, err
	}
	l.W.OnBatch(l.T.Observe) // first: the UI asks for badges on the event
	if o.OnBatch != nil {
		l.W.OnBatch(o.OnBatch)
	}
	l.W.Start()
	return l, nil
}

// Degraded returns why watching is partial, "" when it is not.
func (l *Live) Degraded() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.reason
}

// Stop stops the watcher. The tracker keeps what it knows.
func (l *Live) Stop() { l.W.Stop() }

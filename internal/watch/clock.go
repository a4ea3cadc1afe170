package watch

import "time"

// Clock is the time source of a Watcher and a Tracker. AfterFunc runs f once
// after d, on its own goroutine, unless stop is called first; stop reports
// whether it prevented f from running. Tests inject a manual clock so that
// debouncing is decided by the test, not by the machine's speed.
type Clock interface {
	Now() time.Time
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

// RealClock is the wall clock.
type RealClock struct{}

// Now implements Clock.
func (RealClock) Now() time.Time { return time.Now() }

// AfterFunc implements Clock.
func (RealClock) AfterFunc(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, f).Stop
}

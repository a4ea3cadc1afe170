package cli

import (
	"context"
	"sync"
	"sync/atomic"

	"gatehouse/internal/agent"
	"gatehouse/internal/protocol"
	"gatehouse/internal/sessionhost"
)

// lastTurn keeps the outcome of the lead's last turn (its first, or one a
// teammate's message started).
type lastTurn struct {
	mu  sync.Mutex
	out agent.Outcome
}

func (l *lastTurn) heard(out agent.Outcome) {
	l.mu.Lock()
	l.out = out
	l.mu.Unlock()
}

func (l *lastTurn) get() agent.Outcome {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.out
}

// untilQuiet waits, after the lead's first turn, until the team is quiet:
// no teammate works or waits for the user and the lead runs no turn (a
// teammate's message may start one, which may wake teammates again). It
// returns the lead's last turn's outcome; cancelling ctx closes the
// session (the lead's turn, its queue and the teammates stop).
func untilQuiet(ctx context.Context, sess *sessionhost.Session, last *lastTurn) agent.Outcome {
	team := sess.Teams()
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			sess.Close() // the turn, its queue and the team stop
		case <-done:
		}
	}()
	for {
		if !team.Quiet(ctx) {
			return agent.Outcome{Reason: protocol.StopCancelled}
		}
		sess.Wait()
		if ctx.Err() != nil {
			return agent.Outcome{Reason: protocol.StopCancelled}
		}
		if !team.Busy() && sess.TurnID() == "" && len(sess.Queued()) == 0 {
			return last.get()
		}
	}
}

// teamEnd is how exec's output goes on past the lead's turn.stopped while
// a team runs: on, until end.
type teamEnd struct {
	on   bool
	done *atomic.Bool
}

func newTeamEnd(on bool) teamEnd { return teamEnd{on: on, done: &atomic.Bool{}} }

func (t teamEnd) ended() bool { return t.done != nil && t.done.Load() }

func (t teamEnd) end() {
	if t.done != nil {
		t.done.Store(true)
	}
}

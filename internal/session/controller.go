package session

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"gatehouse/internal/agent"
	"gatehouse/internal/protocol"
)

// Controller runs the turns of one session one at a time. A message submitted
// while a turn runs is queued and sent when the turn stops; Cancel stops the
// running turn (its model stream and any running tool) and keeps the queue.
type Controller struct {
	id    string
	agent *agent.Agent
	// OnStop, when set, is called after each turn with its outcome.
	onStop func(agent.Outcome)
	// after, when set, hears each completed turn (SetAfter).
	after func(ctx context.Context, out agent.Outcome, again bool) (agent.Prompt, bool)

	mu      sync.Mutex
	running bool
	cancel  context.CancelFunc
	queue   []agent.Prompt
	turns   atomic.Uint64
	closed  bool
	idle    *sync.Cond
}

// NewController runs a's turns for session id.
func NewController(id string, a *agent.Agent, onStop func(agent.Outcome)) *Controller {
	c := &Controller{id: id, agent: a, onStop: onStop}
	c.idle = sync.NewCond(&c.mu)
	return c
}

// Submit starts a turn for text, or queues it when a turn runs. It reports
// whether the text was queued.
func (c *Controller) Submit(text string) (queued bool, err error) {
	return c.SubmitPrompt(agent.Prompt{Text: text})
}

// SubmitPrompt is Submit for a message with images.
func (c *Controller) SubmitPrompt(p agent.Prompt) (queued bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return false, fmt.Errorf("the session is closed")
	}
	if c.running {
		c.queue = append(c.queue, p)
		return true, nil
	}
	c.startLocked(p)
	return false, nil
}

func (c *Controller) startLocked(p agent.Prompt) {
	ctx, cancel := context.WithCancel(context.Background())
	c.running, c.cancel = true, cancel
	turnID := fmt.Sprintf("%s-t%d", c.id, c.turns.Add(1))
	go func() {
		out := c.turn(ctx, turnID, p)
		cancel()
		if c.onStop != nil {
			c.onStop(out)
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		c.doneLocked()
	}()
}

// SetAfter sets what hears each turn that completed (the Stop hooks),
// before the next queued message starts: when it returns a prompt, the
// model goes on with it at once, as a turn of its own, and after that turn
// f is asked again with again set, its answer then ignored: a turn goes on
// once. Set it before the first turn.
func (c *Controller) SetAfter(f func(ctx context.Context, out agent.Outcome, again bool) (agent.Prompt, bool)) {
	c.after = f
}

// turn runs p, then whatever the after function asks for once; it returns
// the last turn's outcome.
func (c *Controller) turn(ctx context.Context, turnID string, p agent.Prompt) agent.Outcome {
	out := c.agent.RunPrompt(ctx, turnID, p)
	if c.after == nil || out.Reason != protocol.StopCompleted || ctx.Err() != nil {
		return out
	}
	next, ok := c.after(ctx, out, false)
	if !ok || ctx.Err() != nil {
		return out
	}
	if c.onStop != nil {
		c.onStop(out) // each turn is heard, the one asked for too
	}
	out = c.agent.RunPrompt(ctx, fmt.Sprintf("%s-t%d", c.id, c.turns.Add(1)), next)
	if out.Reason == protocol.StopCompleted && ctx.Err() == nil {
		c.after(ctx, out, true)
	}
	return out
}

// Run runs one turn for text and returns its outcome once it has stopped;
// cancelling ctx cancels it (Cancel and Close do too). It fails, running
// nothing, while another turn runs or after Close. A headless host (exec)
// runs its one turn so.
func (c *Controller) Run(ctx context.Context, text string) (agent.Outcome, error) {
	return c.RunPrompt(ctx, agent.Prompt{Text: text})
}

// RunPrompt is Run for a message with images.
func (c *Controller) RunPrompt(ctx context.Context, p agent.Prompt) (agent.Outcome, error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return agent.Outcome{}, fmt.Errorf("the session is closed")
	}
	if c.running {
		c.mu.Unlock()
		return agent.Outcome{}, fmt.Errorf("a turn is running")
	}
	ctx, cancel := context.WithCancel(ctx)
	c.running, c.cancel = true, cancel
	turnID := fmt.Sprintf("%s-t%d", c.id, c.turns.Add(1))
	c.mu.Unlock()
	out := c.turn(ctx, turnID, p)
	cancel()
	if c.onStop != nil {
		c.onStop(out)
	}
	c.mu.Lock()
	c.doneLocked()
	c.mu.Unlock()
	return out, nil
}

// doneLocked ends a turn or a compaction: the next queued message starts,
// or waiters learn the session is idle.
func (c *Controller) doneLocked() {
	c.running, c.cancel = false, nil
	if len(c.queue) > 0 && !c.closed {
		next := c.queue[0]
		c.queue = c.queue[1:]
		c.startLocked(next)
		return
	}
	c.idle.Broadcast()
}

// Compact writes a checkpoint summary now (agent.Compact) and returns when
// it is written. It is refused while a turn runs; a message submitted
// meanwhile waits for it, and Cancel stops it.
func (c *Controller) Compact() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return fmt.Errorf("the session is closed")
	}
	if c.running {
		c.mu.Unlock()
		return agent.ErrTurnRunning
	}
	ctx, cancel := context.WithCancel(context.Background())
	c.running, c.cancel = true, cancel
	c.mu.Unlock()
	err := c.agent.Compact(ctx)
	cancel()
	c.mu.Lock()
	c.doneLocked()
	c.mu.Unlock()
	return err
}

// UndoCompact undoes the last compaction before the next turn
// (agent.UndoCompact).
func (c *Controller) UndoCompact() error {
	return c.agent.UndoCompact()
}

// SetTurns says how many turns the session had before (a resumed one): the
// next turn is numbered n+1, so turn ids never repeat within a session.
func (c *Controller) SetTurns(n uint64) {
	c.turns.Store(n)
}

// Cancel stops the running turn, if any. Queued messages stay queued.
func (c *Controller) Cancel() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cancel != nil {
		c.cancel()
	}
}

// Queued returns the messages waiting for the running turn to stop.
func (c *Controller) Queued() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]string, len(c.queue))
	for i, p := range c.queue {
		out[i] = p.Text
	}
	return out
}

// Running reports whether a turn runs.
func (c *Controller) Running() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.running
}

// Close cancels the running turn, drops the queue, and waits until the turn
// has stopped.
func (c *Controller) Close() {
	c.mu.Lock()
	c.closed = true
	c.queue = nil
	if c.cancel != nil {
		c.cancel()
	}
	for c.running {
		c.idle.Wait()
	}
	c.mu.Unlock()
}

// Wait blocks until no turn runs and the queue is empty.
func (c *Controller) Wait() {
	c.mu.Lock()
	for c.running {
		c.idle.Wait()
	}
	c.mu.Unlock()
}

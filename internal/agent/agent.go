// Package agent is the turn loop: model → tool calls → results → model, until
// the model answers without a tool call or the turn stops for another reason.
//
// Every turn ends with exactly one turn.stopped event whose reason is a typed
// protocol.StopReason, never parsed from an error string. When a turn stops
// early (cancel, rejected approval, max steps, error), every tool call the
// model made that did not run gets a result saying so, so the history sent
// with the next request always pairs each call with one result.
//
// The history keeps every message whole; a request sends a view of it that
// fits the model's context window (window.go: from the model, else the
// setting): old tool outputs cleared to one-line stubs past MicroCompactAt
// (fit.go), older turns replaced by a checkpoint summary the model writes
// past CompactAt, after a context_length_exceeded refusal, or by hand
// (compact.go).
package agent

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"gatehouse/internal/llm"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

// Model streams one model call; *llm.Client implements it.
type Model interface {
	Stream(ctx context.Context, req llm.Request, onText func(string)) (llm.Response, error)
}

// Publisher receives the turn's events; *events.Bus implements it.
type Publisher interface {
	Publish(protocol.Event)
}

// Config holds what a session's agent needs.
type Config struct {
	Model     Model
	Tools     *tools.Router
	Events    Publisher
	SessionID string
	// System is the system prompt (see SystemPrompt).
	System string
	// MaxSteps bounds the model requests of one turn; default 50.
	MaxSteps int
	// ContextWindow is the window in tokens from the settings, used when
	// the model does not know its own (see Windowed); 0: llm.DefaultWindow.
	ContextWindow int
	// MicroCompactAt and CompactAt are how full the window may get, in
	// percent, before old tool outputs are cleared (default 70) and before
	// older turns are replaced by a checkpoint summary (default 85); see
	// fit.go and compact.go.
	MicroCompactAt, CompactAt int
	// Notes, when set, is asked before each model request for short notes
	// the model should read (files it read changed on disk meanwhile). Each
	// joins the history as a user message, so later requests carry it too.
	Notes func() []string
	// CanSee reports whether the model takes images now (the host knows
	// it from the server, a table or a setting); nil or false: no image is
	// ever sent and view_image is not offered (see images.go).
	CanSee func() bool
	// LoadImage reads a saved image by id, for the images of a resumed
	// session, whose history names them without their bytes.
	LoadImage func(id string) ([]byte, error)
	// Kept, when set, is read at each request after a compaction and sent
	// with the checkpoint summary: state the model keeps beyond its summary
	// (its todo list). "" adds nothing. It must not call into the Agent.
	Kept func() string
	// Budget, when set, meters every model request of the session (see
	// Budget); nil: none is priced or limited.
	Budget Budget
	// BeforeCompact, when set, hears each compaction before its summary
	// is asked for (the PreCompact hooks): manual when the user asked.
	BeforeCompact func(ctx context.Context, manual bool)
}

// Budget meters a session's model requests (*budget.Meter implements it;
// a child session shares its parent's). Both methods may be called from
// several sessions at once.
type Budget interface {
	// Spend records one request's usage at the model that answered it and
	// returns its cost in US dollars; priced is false when the model has
	// no known price.
	Spend(model string, u protocol.Usage) (usd float64, priced bool)
	// Check returns the limit the session has reached, nil while none;
	// the turn stops with budget_exhausted before its next request.
	Check() *protocol.BudgetStop
}

// Agent runs the turns of one session, one at a time.
type Agent struct {
	cfg  Config
	ids  atomic.Uint64
	turn sync.Mutex // held while a turn runs
	// turnID is the running turn's id ("" between turns).
	turnID atomic.Pointer[string]

	mu sync.Mutex
	// history is every message of the session, whole; what a request
	// sends is a view of it (fit.go).
	history []llm.Message
	// cleared holds the stub of each tool result micro-compaction cleared,
	// by call id.
	cleared map[string]string
	// cp is the summary compaction in effect; undo the one UndoCompact
	// may undo (nil once a turn started).
	cp   *checkpoint
	undo *undoable
	// ratio is how many tokens the server counted for each one Gatehouse
	// estimated, at most so far (0 until the server said).
	ratio float64
	// window is the context window resolved at the turn's start; learned
	// the one a refusal reported, when smaller than learnedOver, the window
	// resolved then.
	window, learned, learnedOver llm.Window
	// sees is Config.CanSee's answer, asked before each request outside
	// the lock (it may ask the model server once).
	sees atomic.Bool
	// model is the model that answered the last request, which a
	// compaction's usage is priced at.
	model atomic.Pointer[string]
}

// New returns an agent with an empty history.
func New(cfg Config) *Agent {
	if cfg.MaxSteps <= 0 {
		cfg.MaxSteps = 50
	}
	if cfg.ContextWindow < 0 {
		cfg.ContextWindow = 0
	}
	cfg.MicroCompactAt, cfg.CompactAt = protocol.CompactionThresholds(cfg.MicroCompactAt, cfg.CompactAt)
	return &Agent{cfg: cfg, cleared: map[string]string{}}
}

// SetHistory replaces the conversation (resuming a saved session), with no
// compaction in effect.
func (a *Agent) SetHistory(h []llm.Message) {
	a.mu.Lock()
	a.history = append([]llm.Message(nil), h...)
	a.cleared = map[string]string{}
	a.cp, a.undo = nil, nil
	a.mu.Unlock()
}

// History returns a copy of the conversation so far.
func (a *Agent) History() []llm.Message {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]llm.Message(nil), a.history...)
}

func (a *Agent) appendHistory(m ...llm.Message) {
	a.mu.Lock()
	a.history = append(a.history, m...)
	a.mu.Unlock()
}

// Outcome is how a turn ended.
type Outcome struct {
	TurnID string
	Reason protocol.StopReason
	// Err is set when Reason is error.
	Err   error
	Usage protocol.Usage
	// Model is the model that answered the turn's last request: what its
	// Usage is priced at ("" when it made none).
	Model string
	// Blocked is the call the user rejected, when Reason is blocked_by_approval.
	Blocked *protocol.Blocked
	// Plan is the plan the model proposed, when the turn ended with one.
	Plan *protocol.ProposedPlan
	// ContextTokens is the prompt size of the turn's last request: the
	// server's count, or the estimate when ContextEstimated (the server
	// reported no usage). 0: the turn made no request.
	ContextTokens    int64
	ContextEstimated bool
	// Trimmed counts old tool outputs cleared to fit the context window.
	Trimmed int
	// Compactions counts the checkpoint summaries written during the turn.
	Compactions int
	// Cost is what the turn's requests cost, each at its model's price;
	// nil without a Budget or when a request's model had no price.
	Cost *float64
	// Budget is the limit that stopped the turn (Reason budget_exhausted).
	Budget *protocol.BudgetStop
	// unpriced is set once a request of the turn had no price.
	unpriced bool
}

// contextUse is how full the window was at the turn's last request; nil
// when the turn made none.
func (a *Agent) contextUse(out Outcome) *protocol.ContextUse {
	if out.ContextTokens <= 0 {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	w := a.windowLocked()
	return &protocol.ContextUse{Tokens: out.ContextTokens, Estimated: out.ContextEstimated,
		Window: int64(w.Tokens), WindowSource: string(w.Source), Trimmed: out.Trimmed, Compacted: a.cp != nil}
}

func (a *Agent) newID(prefix string) string {
	return fmt.Sprintf("%s-%d", prefix, a.ids.Add(1))
}

// TurnID is the id of the turn running now, "" between turns (a note
// source asked before a model request reads it to say which turn it is).
func (a *Agent) TurnID() string {
	if p := a.turnID.Load(); p != nil {
		return *p
	}
	return ""
}

func (a *Agent) emit(turnID string, typ protocol.EventType, payload any) {
	if a.cfg.Events == nil {
		return
	}
	a.cfg.Events.Publish(protocol.Event{SessionID: a.cfg.SessionID, TurnID: turnID, Type: typ, Payload: payload})
}

// dropTurn takes the turn turnID, the last one, out of the history (its
// prompt and everything after it), for a retry that replaces it. It
// reports whether it did: not when no prompt has that id, nor when a
// checkpoint summary stands for part of the turn (the summary already
// tells the model of it).
func (a *Agent) dropTurn(turnID string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	for i := len(a.history) - 1; i >= 0; i-- {
		m := a.history[i]
		if m.Role != llm.RoleUser || m.ID != turnID {
			continue
		}
		if i < a.firstSent() {
			return false
		}
		for _, later := range a.history[i:] {
			delete(a.cleared, later.ToolCallID)
		}
		a.history = a.history[:i:i]
		return true
	}
	return false
}

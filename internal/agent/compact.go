package agent

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"regexp"
	"strconv"

	"gatehouse/internal/llm"
	"gatehouse/internal/protocol"
)

// Summary compaction: the model writes a checkpoint summary of the session
// (compact.md is our prompt) and the summary replaces the older messages in
// what is sent; the history keeps them, and so does the session log. It
// runs on its own past Config.CompactAt percent of the window, after a
// context_length_exceeded refusal, or when the user asks (Compact). The
// last compaction can be undone until the next turn starts (UndoCompact).

//go:embed compact.md
var compactPrompt string

// checkpoint is the summary compaction in effect.
type checkpoint struct {
	id      string
	summary string
	// keep is the index in the history of the first message sent after
	// the summary; keepFrom is its ID.
	keep     int
	keepFrom string
	// lastUser is the index of the turn's prompt when the summary, written
	// during the turn, replaced it: it is sent before the summary. Else -1.
	lastUser int
}

// keepShare is the part of the window (percent) the messages kept after a
// summary may take.
const keepShare = 25

// keepRoomShare is the part of the window (percent) the system prompt, the
// tools and the kept messages may fill together after a summary, leaving
// the rest for the summary and the turn that follows.
const keepRoomShare = 55

// checkpointText is the message that carries a summary to the model.
func checkpointText(summary string) string {
	return "[Checkpoint: the conversation before this point was compacted to fit your context window. " +
		"Your own summary of it follows; tool outputs from before it are gone, so run tools again when you need them.]\n\n" + summary
}

// ErrNothingToCompact is Compact's answer when no older message can be
// replaced by a summary.
var ErrNothingToCompact = errors.New("there is nothing to compact yet")

// ErrTurnRunning is returned by Compact and UndoCompact while a turn runs.
var ErrTurnRunning = errors.New("a turn is running; try again when it has stopped")

// Compact writes a checkpoint summary now, by the user's hand, between
// turns. Its events carry no turn id.
func (a *Agent) Compact(ctx context.Context) error {
	if !a.turn.TryLock() {
		return ErrTurnRunning
	}
	defer a.turn.Unlock()
	a.resolveWindow(ctx)
	a.updateSees()
	ok, _, err := a.compact(ctx, "", a.toolSpecs(), true)
	if err == nil && !ok {
		return ErrNothingToCompact
	}
	return err
}

// UndoCompact undoes the last compaction, as long as no turn started since:
// the model is sent the history as before it.
func (a *Agent) UndoCompact() error {
	if !a.turn.TryLock() {
		return ErrTurnRunning
	}
	defer a.turn.Unlock()
	a.mu.Lock()
	u := a.undo
	if u == nil {
		a.mu.Unlock()
		return errors.New("there is no compaction to undo: only the last one can be, before the next turn")
	}
	a.cp, a.undo = u.prev, nil
	use := a.useLocked(a.toolSpecs())
	a.mu.Unlock()
	a.emit("", protocol.ContextCompactionUndone, protocol.ContextCompactionUndonePayload{CompactionID: u.id, Context: use})
	return nil
}

// undoable is the compaction UndoCompact can undo: its id and the
// checkpoint it replaced.
type undoable struct {
	id   string
	prev *checkpoint
}

// compact asks the model for a checkpoint summary of everything sent so
// far and makes it replace the older messages. It reports false (and no
// error) when no older message can be replaced, and the tokens the summary
// request used.
func (a *Agent) compact(ctx context.Context, turnID string, specs []llm.ToolSpec, manual bool) (bool, protocol.Usage, error) {
	a.mu.Lock()
	keep := a.splitLocked(specs)
	if keep <= a.firstSent() {
		a.mu.Unlock()
		return false, protocol.Usage{}, nil
	}
	before := a.sizeLocked(specs)
	msgs := a.summaryInputLocked(specs)
	a.mu.Unlock()
	if a.cfg.BeforeCompact != nil {
		a.cfg.BeforeCompact(ctx, manual)
	}

	resp, err := a.cfg.Model.Stream(ctx, llm.Request{Messages: append(msgs, llm.User(compactPrompt)), Tools: specs}, nil)
	if err != nil {
		return false, resp.Usage, fmt.Errorf("writing the checkpoint summary: %w", err)
	}
	if resp.Message.Text == "" {
		return false, resp.Usage, errors.New("writing the checkpoint summary: the model answered without text")
	}
	a.mu.Lock()
	id := a.newID(fmt.Sprintf("%s-compaction", a.cfg.SessionID))
	a.undo = &undoable{id: id, prev: a.cp}
	replaced := keep - a.firstSent()
	a.cp = &checkpoint{id: id, summary: resp.Message.Text, keep: keep, lastUser: -1}
	if keep < len(a.history) {
		a.cp.keepFrom = a.history[keep].ID
	}
	c := protocol.Compaction{KeepFrom: a.cp.keepFrom, Replaced: replaced, Manual: manual, TokensBefore: int64(before)}
	if turnID != "" {
		// Mid-turn, the model goes on with the turn's prompt in front of it.
		if a.cp.lastUser = a.promptReplaced(keep); a.cp.lastUser >= 0 {
			c.Prompt = a.history[a.cp.lastUser].ID
		}
	}
	use := a.useLocked(specs)
	a.mu.Unlock()
	a.emit(turnID, protocol.ContextCompacted, protocol.ContextCompactedPayload{
		CompactionID: id, Summary: resp.Message.Text, Compaction: c, Context: use})
	return true, resp.Usage, nil
}

// splitLocked picks where the messages kept after a summary begin: at the
// latest assistant message when its results are the history's end (the
// model is about to read them), else after everything; then as far back as
// keepShare percent of the window allows, at a message that is not a tool
// result, so every call keeps its result. What every request carries (the
// system prompt and the tools) and room for the summary come first: with a
// small window, fewer turns are kept, so the compacted request fits.
func (a *Agent) splitLocked(specs []llm.ToolSpec) int {
	keep := len(a.history)
	if keep > 0 && a.history[keep-1].Role == llm.RoleTool {
		for keep > 0 && a.history[keep-1].Role != llm.RoleAssistant {
			keep--
		}
		keep = max(keep-1, 0) // the assistant message itself
	}
	w := a.windowLocked().Tokens
	overhead := a.scaled(specTokens(specs) + estimate(a.cfg.System))
	budget := min(w*keepShare/100, w*keepRoomShare/100-overhead)
	size := 0
	for i := keep - 1; i > a.firstSent(); i-- {
		size += a.scaled(messageTokens(a.history[i]))
		if size > budget {
			break
		}
		if a.history[i].Role != llm.RoleTool {
			keep = i
		}
	}
	return keep
}

// summaryInputLocked is what the summary request sends before our prompt:
// the view, with every older tool output cleared when the view alone would
// take most of the window (after a refusal, say).
func (a *Agent) summaryInputLocked(specs []llm.ToolSpec) []llm.Message {
	window := a.windowLocked().Tokens
	if size := a.sizeLocked(specs); size > window*80/100 {
		a.clearLocked(specs, 0, &size)
	}
	// What still does not fit (long messages, not tool output: a large
	// tool surface leaves little room in a small window) is shortened in
	// this request only.
	budget := window*80/100 - a.scaled(specTokens(specs)+estimate(compactPrompt))
	return a.shortenForSummary(a.viewLocked(), budget)
}

// promptReplaced is the index of the last prompt (a user message with an
// id; notes have none) when it comes before keep, so a summary replaces
// it; -1 when the messages from keep on hold a prompt, or there is none.
// Without ids (a history set by a test) any user message counts.
func (a *Agent) promptReplaced(keep int) int {
	for i := len(a.history) - 1; i >= 0; i-- {
		if a.history[i].Role != llm.RoleUser || (a.history[i].ID == "" && a.anyID()) {
			continue
		}
		if i >= keep {
			return -1
		}
		return i
	}
	return -1
}

// anyID reports whether the history's messages carry ids.
func (a *Agent) anyID() bool {
	for _, m := range a.history {
		if m.ID != "" {
			return true
		}
	}
	return false
}

// useLocked is the estimated use of the window by the next request.
func (a *Agent) useLocked(specs []llm.ToolSpec) *protocol.ContextUse {
	w := a.windowLocked()
	return &protocol.ContextUse{Tokens: int64(a.sizeLocked(specs)), Estimated: true, Window: int64(w.Tokens),
		WindowSource: string(w.Source), Compacted: a.cp != nil}
}

// tokensIn reads "maximum context length is 32768 tokens ... resulted in
// 40123 tokens" from a refusal, as OpenAI and vLLM word it.
var tokensIn = regexp.MustCompile(`(\d+) tokens`)

// learnFromRefusal makes the next estimates more pessimistic after a
// context_length_exceeded refusal of a request estimated at size: from the
// numbers the server gave when it gave them (the window, and the request's
// real size), else by a third.
func (a *Agent) learnFromRefusal(err error, size int) {
	var e *llm.Error
	m := [][]string(nil)
	if errors.As(err, &e) {
		m = tokensIn.FindAllStringSubmatch(e.Message, -1)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(m) >= 2 {
		window, _ := strconv.Atoi(m[0][1])
		real, _ := strconv.Atoi(m[1][1])
		if w := a.windowLocked(); window > 0 && window < w.Tokens {
			if a.learned.Tokens == 0 {
				a.learnedOver = w
			}
			a.learned = llm.Window{Tokens: window, Source: llm.WindowServer}
			a.window = a.learned
		}
		if r := max(a.ratio, 1); real > 0 && size > 0 {
			a.ratio = max(r, r*float64(real)/float64(size))
			return
		}
	}
	a.ratio = max(a.ratio, 1) * 4 / 3
}

// RestoreCheckpoint sets the compaction in effect when resuming a saved
// session, after SetHistory: the summary replaces the messages before the
// one whose ID is c.KeepFrom, or, when that is empty or not found, the
// first keep messages; the prompt whose ID is c.Prompt goes before it. It
// cannot be undone.
func (a *Agent) RestoreCheckpoint(id, summary string, c protocol.Compaction, keep int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	cp := &checkpoint{id: id, summary: summary, keepFrom: c.KeepFrom, lastUser: -1}
	for i, m := range a.history {
		if m.ID == "" {
			continue
		}
		if m.ID == c.KeepFrom {
			keep = i
		}
		if m.ID == c.Prompt && m.Role == llm.RoleUser {
			cp.lastUser = i
		}
	}
	cp.keep = min(max(keep, 0), len(a.history))
	a.cp, a.undo = cp, nil
}

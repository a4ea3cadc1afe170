package runtime

import (
	"context"
	"gatehouse/internal/hooks"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"gatehouse/internal/agent"
	"gatehouse/internal/approval"
	"gatehouse/internal/budget"
	"gatehouse/internal/checkpoint"
	"gatehouse/internal/events"
	"gatehouse/internal/images"
	"gatehouse/internal/instructions"
	"gatehouse/internal/lsp"
	"gatehouse/internal/proc"
	"gatehouse/internal/protocol"
	"gatehouse/internal/session"
	"gatehouse/internal/tools"
	"gatehouse/internal/tools/builtin"
	"gatehouse/internal/tools/steer"
	"gatehouse/internal/tools/web"
	"gatehouse/internal/watch"
	"gatehouse/internal/workspace"
)

// Session is one assembled session. Its methods are safe for concurrent
// use; see the package doc.
type Session struct {
	id string
	// procOpts configure the session's processes (before its observer);
	// its children's processes use them too.
	procOpts proc.Options
	// undoTurn, for a child recording into its parent's checkpoints, is the
	// main session's turn its changes belong to.
	undoTurn string
	// images and canSee are Options.Images and Options.CanSee.
	images *images.Store
	canSee func() bool
	web    web.Config // Options.Web, for children
	ws     *workspace.Workspace
	log    *session.Log
	// logq writes log off the event delivery and the gate (nil: no log).
	logq   *session.Queue
	logger *slog.Logger
	parent *Session
	policy tools.Policy
	depth  int
	model  agent.Model
	mode   func() approval.Mode

	agentName  string
	hooks      *hooks.Runner // the user's hooks (nil: none)
	ownGateway bool

	hookMu   sync.Mutex
	noteSrcs []func() []string
	// approvalWatch and onPrompt: watchers.go.
	approvalWatch []func(approval.Request)
	onPrompt      []func()
	onTurnEnd     []func(agent.Outcome)
	snapshotters  []func(*protocol.Snapshot)
	// ins are the session's instructions (AGENTS.md files); configDir the
	// folder of the user's own.
	ins       *instructions.Set
	configDir string
	onClose   []func()

	pub      Publisher
	bus      *events.Bus // the session's own, when the host gave a Sink
	state    *session.State
	files    *watch.Live
	ownFiles bool
	procs    *proc.Registry
	surface  *tools.Surface
	gw       approval.Gateway
	gate     *approval.Gate
	stages   []stage
	router   *tools.Router
	agent    *agent.Agent
	ctrl     *session.Controller
	undo     *checkpoint.Recorder // nil: no undo store
	unwatch  func()               // stops feeding the undo recorder the watcher's batches
	langs    *lsp.Manager         // the language servers (nil: none)
	unfeed   func()               // stops feeding the language servers the watcher's batches
	todos    *steer.Todos         // the model's todo list (todo_write)
	asker    steer.Asker          // who answers ask_user (nil: no one)
	meter    *budget.Meter        // nil: not metered; a child's is its parent's

	logWarned atomic.Bool
	closeOnce sync.Once
}

// ProcessOptions are what the session's processes run with (supervisor,
// ledger, sandbox, environment), before its observer; its children's too.
func (s *Session) ProcessOptions() proc.Options { return s.procOpts }

// LogPath is the file of the session's log ("": not saved).
func (s *Session) LogPath() string {
	if s.log == nil {
		return ""
	}
	return s.log.Path()
}

// Undoable says whether the session records checkpoints (undo).
func (s *Session) Undoable() bool { return s.undo != nil }

// ID is the session's id.
func (s *Session) ID() string { return s.id }

// Workspace is the session's boundary.
func (s *Session) Workspace() *workspace.Workspace { return s.ws }

// Parent is the session this one works for, nil for a main session.
func (s *Session) Parent() *Session { return s.parent }

// Depth is 0 for a main session, 1 for its child, and so on.
func (s *Session) Depth() int { return s.depth }

// Agent is a child's agent name as its approval requests show it; "" for a
// main session.
func (s *Session) Agent() string { return s.agentName }

// Model is the model the session's agent streams from.
func (s *Session) Model() agent.Model { return s.model }

// Mode is the session's approval mode, read at every call.
func (s *Session) Mode() approval.Mode { return s.mode() }

// Asker is who answers the model's questions (nil: no one).
func (s *Session) Asker() steer.Asker { return s.asker }

// ModeFunc is how the session reads its approval mode, for a child to share.
func (s *Session) ModeFunc() func() approval.Mode { return s.mode }

// Files is the live watch the session uses (nil: none), for a child to
// share.
func (s *Session) Files() *watch.Live { return s.files }

// Publisher is the session's event stream, for a child to forward its
// events to.
func (s *Session) Publisher() Publisher { return s.pub }

// AppendRecord writes a record of type typ to the session's log (nothing
// without a log); a child's end is saved this way in its parent's log.
func (s *Session) AppendRecord(typ session.RecordType, v any) error {
	if s.logq == nil {
		return nil
	}
	return s.logq.Append(typ, v)
}

// FlushLog waits until every record of the log queued so far is on disk,
// and returns a write error not reported yet (nil without a log).
func (s *Session) FlushLog() error {
	if s.logq == nil {
		return nil
	}
	return s.logq.Flush()
}

// RestoreChild shows the transcript of a subagent that ended under the call
// that started it, in the session's snapshot (a resumed session's children).
func (s *Session) RestoreChild(parentCallID string, ct protocol.ChildTranscript) {
	s.state.RestoreChild(parentCallID, ct)
}

// AddNotes adds a source of notes asked before each model request: each
// note reaches the model as a user message (a background child's result).
// The function must not block and must return each note once.
func (s *Session) AddNotes(f func() []string) {
	s.hookMu.Lock()
	s.noteSrcs = append(s.noteSrcs, f)
	s.hookMu.Unlock()
}

// TurnID is the id of the running turn, "" between turns.
func (s *Session) TurnID() string { return s.agent.TurnID() }

// Tell publishes an event of the running turn (a transcript item a note
// source adds, such as MCP servers the turn runs without).
func (s *Session) Tell(typ protocol.EventType, payload any) {
	s.pub.Publish(protocol.Event{SessionID: s.id, TurnID: s.TurnID(), Type: typ, Payload: payload})
}

// OnClose adds f to what Close runs first, before the turn is cancelled
// (a provider's background work is stopped there). f must not call Close.
func (s *Session) OnClose(f func()) {
	s.hookMu.Lock()
	s.onClose = append(s.onClose, f)
	s.hookMu.Unlock()
}

// notes gathers the notes of the next model request.
func (s *Session) notes() []string {
	var out []string
	// The notes of files changed outside are taken once, by the main
	// session; a child sharing its parent's watch leaves them to it.
	if s.files != nil && s.parent == nil {
		out = s.files.T.Notes()
	}
	// Files the user reverted (undo), told once.
	if s.undo != nil && s.parent == nil {
		out = append(out, s.undo.Notes()...)
	}
	out = append(out, s.ins.Notes()...)
	s.hookMu.Lock()
	srcs := append([]func() []string(nil), s.noteSrcs...)
	s.hookMu.Unlock()
	for _, f := range srcs {
		out = append(out, f()...)
	}
	return out
}

// Policy is the session's policy in effect (a child's intersected with its
// parent's).
func (s *Session) Policy() tools.Policy { return s.policy }

// Submit starts a turn for text, or queues it while one runs; it reports
// whether it was queued.
func (s *Session) Submit(text string) (queued bool, err error) {
	return s.SubmitPrompt(agent.Prompt{Text: text})
}

// SubmitPrompt is Submit for a message with images (prepared and saved in
// Options.Images by the host).
func (s *Session) SubmitPrompt(p agent.Prompt) (queued bool, err error) {
	if p, err = s.promptHooks(context.Background(), p); err != nil {
		return false, err
	}
	s.prompted()
	return s.ctrl.SubmitPrompt(p)
}

// RunPrompt is Run for a message with images.
func (s *Session) RunPrompt(ctx context.Context, p agent.Prompt) (agent.Outcome, error) {
	p, err := s.promptHooks(ctx, p)
	if err != nil {
		return agent.Outcome{}, err
	}
	s.prompted()
	return s.ctrl.RunPrompt(ctx, p)
}

// PromptBlockedError: a UserPromptSubmit hook erased the prompt; Reason is
// for the user.
type PromptBlockedError struct{ Reason string }

func (e *PromptBlockedError) Error() string { return "a hook blocked the prompt: " + e.Reason }

// promptHooks runs the UserPromptSubmit hooks on every prompt, whichever
// host sent it: a block (or a failing hook: fail closed) erases the prompt,
// nothing is sent; context a hook adds goes after the prompt.
func (s *Session) promptHooks(ctx context.Context, p agent.Prompt) (agent.Prompt, error) {
	if s.hooks == nil || s.agentName != "" {
		return p, nil // a child's prompt is its parent's model's, not the user's
	}
	o := s.hooks.Run(ctx, hooks.UserPromptSubmit, hooks.Input{Prompt: p.Text}, nil)
	switch {
	case o.Blocked:
		return p, &PromptBlockedError{Reason: o.Reason}
	case o.Stop:
		return p, &PromptBlockedError{Reason: o.StopReason}
	}
	if o.Context != "" {
		p.Text += "\n\n<hook-context>\n" + o.Context + "\n</hook-context>"
	}
	return p, nil
}

// Images is the session's image store (nil: images are not saved).
func (s *Session) Images() *images.Store { return s.images }

// Run runs one turn for text and returns when it stopped; cancelling ctx
// cancels it. It fails while another turn runs.
func (s *Session) Run(ctx context.Context, text string) (agent.Outcome, error) {
	return s.RunPrompt(ctx, agent.Prompt{Text: text})
}

// Cancel stops the running turn (its model stream and any running tool);
// queued messages stay queued.
func (s *Session) Cancel() { s.ctrl.Cancel() }

// Compact writes a checkpoint summary now, refused while a turn runs
// (session.Controller.Compact).
func (s *Session) Compact() error { return s.ctrl.Compact() }

// UndoCompact undoes the last compaction before the next turn.
func (s *Session) UndoCompact() error { return s.ctrl.UndoCompact() }

// Queued returns the messages waiting for the running turn to stop.
func (s *Session) Queued() []string { return s.ctrl.Queued() }

// Wait blocks until no turn runs and nothing is queued.
func (s *Session) Wait() { s.ctrl.Wait() }

// Emit hands the session an event its host's stream delivered (Options.
// Events); it keeps the snapshot and writes finished items to the log. It
// takes only the state's and the log's locks, never one of the host's.
func (s *Session) Emit(e protocol.Event) { s.state.Emit(e) }

// Snapshot is the session's state for a page that (re)draws.
func (s *Session) Snapshot() protocol.Snapshot {
	snap := s.state.Snapshot()
	if s.meter != nil {
		st := s.meter.State()
		snap.Budget = &st
	}
	if p, ok := s.asker.(interface{ PendingForms() []steer.Form }); ok {
		snap.PendingQuestions = p.PendingForms()
	}
	s.addToSnapshot(&snap)
	return snap
}

// Processes is the session's process registry.
func (s *Session) Processes() *proc.Registry { return s.procs }

// RestartProcess starts an ended process's command again in the same
// folder, which passes the workspace boundary again.
func (s *Session) RestartProcess(id string) (proc.Info, error) {
	return s.procs.Restart(id, builtin.Dirs{WS: s.ws}.ResolveDir)
}

// Rules are the session's approval rules.
func (s *Session) Rules() *approval.Rules { return s.gate.Rules() }

// Gateway is what Options.Gateway returned, for the host to answer through
// (the window's *approval.GUI).
func (s *Session) Gateway() approval.Gateway { return s.gw }

// Specs are the tools the model is offered now: the surface filtered by the
// policy, sorted by name; the next model request sends exactly these.
func (s *Session) Specs() []tools.Spec { return s.router.Specs() }

// Stages names the middleware every call passes, outermost first.
func (s *Session) Stages() []string {
	out := make([]string, len(s.stages))
	for i, st := range s.stages {
		out[i] = st.name
	}
	return out
}

// AddProvider adds p's tools to the surface; the next model request offers
// those the policy allows. A name clash with a tool already there is an
// error naming both sources, and nothing is added.
func (s *Session) AddProvider(p tools.Provider) error { return s.surface.AddProvider(p) }

// Providers are the providers on the session's surface, in the order they
// were added.
func (s *Session) Providers() []tools.Provider { return s.surface.ProviderList() }

// Keeper is a provider with state the model keeps past a checkpoint
// summary (the skills it loaded): Kept returns it as text, "" for none,
// and must not call into the session.
type Keeper interface {
	Kept() string
}

// kept is what follows a checkpoint summary: the todo list, then what each
// provider keeps (agent.Config.Kept).
func (s *Session) kept() string {
	parts := []string{s.todos.Note()}
	for _, p := range s.Providers() {
		if k, ok := p.(Keeper); ok {
			parts = append(parts, k.Kept())
		}
	}
	parts = slices.DeleteFunc(parts, func(p string) bool { return p == "" })
	return strings.Join(parts, "\n\n")
}

// Instructions lists the instruction files the model was told so far
// (the "what the model was told" view).
func (s *Session) Instructions() []instructions.File { return s.ins.Files() }

// RemoveProvider takes the provider called name and its tools off the
// surface; it reports whether there was one.
func (s *Session) RemoveProvider(name string) bool { return s.surface.RemoveProvider(name) }

// ProviderErrors says which of provider name's tools the surface left out,
// and why (a clash after the provider's list changed), as of the last read.
func (s *Session) ProviderErrors(name string) []string { return s.surface.ProviderErrors(name) }

// Close releases the session (see the package doc). Safe to call again.
func (s *Session) Close() {
	s.closeOnce.Do(func() {
		s.hookMu.Lock()
		fs := s.onClose
		s.hookMu.Unlock()
		for _, f := range fs {
			f()
		}
		if c, ok := s.gw.(interface{ Close() }); ok && s.ownGateway {
			c.Close() // a waiting request rejects: the turn can stop
		}
		s.ctrl.Close()
		s.endHooks()
		s.release(true)
	})
}

// release frees what New set up, in the order that keeps the log whole:
// processes killed and their last events delivered, then saved. Without
// withLog (New failed) the log stays the host's, untouched.
func (s *Session) release(withLog bool) {
	s.procs.Close()
	s.pub.Flush()
	if s.log != nil && withLog {
		_ = s.logq.SaveProcesses(s.procs.Snapshot(ProcessTail))
		_ = s.logq.Close()
	}
	if s.unwatch != nil {
		s.unwatch()
	}
	if s.unfeed != nil {
		s.unfeed()
	}
	if s.ownFiles {
		s.files.Stop()
	}
	if s.bus != nil {
		s.bus.Close()
	}
}

// restoredItems are the saved transcript of a resumed session. A log that
// ends inside a turn (Gatehouse left mid-turn) gets that turn's stop item,
// in the log too, so it reads as ended.
func (s *Session) restoredItems(past *session.Loaded) []protocol.TranscriptItem {
	if past == nil {
		return nil
	}
	if stop, ok := session.Interrupted(past.Items); ok {
		past.Items = append(past.Items, stop)
		s.logItem(stop)
	}
	return past.Items
}

// restore gives a resumed session its history, turn count and processes.
func (s *Session) restore(past *session.Loaded) {
	if past == nil {
		return
	}
	session.Resume(s.agent, past.Items)
	s.ctrl.SetTurns(session.LastTurn(past.Items))
	// The todo list is the last one the model wrote.
	for i := len(past.Items) - 1; i >= 0; i-- {
		if it := past.Items[i]; it.Kind == protocol.ItemTool && it.Tool == steer.TodoWriteName && !it.IsError && !it.Running {
			s.todos.Restore(it.Args)
			break
		}
	}
	var infos []protocol.ProcessInfo
	for _, i := range s.procs.Restore(past.Processes) {
		infos = append(infos, session.ProcessInfo(i))
	}
	s.state.AddProcesses(infos)
}

// logItem appends a finished item to the log. A failed write is reported
// once; the session goes on unsaved.
func (s *Session) logItem(it protocol.TranscriptItem) {
	if s.log == nil {
		return
	}
	if err := s.logq.AppendItem(it); err != nil && !s.logWarned.Swap(true) {
		s.logger.Warn("could not write the session log", "session", s.id, "err", err)
	}
}

// record writes an approval decision or rule change to the log.
func (s *Session) record(r approval.Record) {
	s.logger.Info("approval", "session", s.id, "kind", r.Kind, "approval", r.ApprovalID, "call", r.CallID,
		"tool", r.Tool, "by", r.By)
	if s.log == nil {
		return
	}
	typ := session.RecordRule
	if r.Kind == approval.RecordDecision {
		typ = session.RecordDecision
	}
	if err := s.logq.Append(typ, r); err != nil {
		s.logger.Warn("could not write the session log", "session", s.id, "err", err)
	}
}

package protocol

import "encoding/json"

// TurnStartedPayload: the user's message started a turn.
type TurnStartedPayload struct {
	Prompt string `json:"prompt"`
	// Images are the pictures attached to the prompt.
	Images []ImageRef `json:"images,omitempty"`
	// Replaces is the turn this one retries: its messages left the model's
	// history when this turn started (the transcript still shows them).
	Replaces string `json:"replaces,omitempty"`
}

// MessageDeltaPayload carries new assistant text. Deltas of one message may
// be coalesced: Text is then the concatenation, in order.
type MessageDeltaPayload struct {
	MessageID string `json:"messageId"`
	Text      string `json:"text"`
}

// MessageDonePayload carries the whole assistant message once it ended.
// Cancelled is set when the turn was cancelled while the message streamed:
// Text is then what arrived before the cancel.
//
// Reasoning is the model's reasoning items that led to the message, opaque
// (encrypted on the Responses API), and ReasoningModel the model that made
// them: the session log keeps them so a resumed session sends them back,
// unless the model changed. The UI ignores them.
type MessageDonePayload struct {
	MessageID      string            `json:"messageId"`
	Text           string            `json:"text"`
	Cancelled      bool              `json:"cancelled,omitempty"`
	Reasoning      []json.RawMessage `json:"reasoning,omitempty"`
	ReasoningModel string            `json:"reasoningModel,omitempty"`
}

// ContextCompactedPayload: older turns were replaced by a checkpoint
// summary in what the model is sent (the transcript keeps them). Context is
// the estimated use right after.
type ContextCompactedPayload struct {
	CompactionID string      `json:"compactionId"`
	Summary      string      `json:"summary"`
	Compaction   Compaction  `json:"compaction"`
	Context      *ContextUse `json:"context,omitempty"`
}

// ContextCompactionUndonePayload: the user undid the compaction before the
// next turn; the model is sent the full history again.
type ContextCompactionUndonePayload struct {
	CompactionID string      `json:"compactionId"`
	Context      *ContextUse `json:"context,omitempty"`
}

// ToolStartedPayload: a tool call passed the gate and began to run.
type ToolStartedPayload struct {
	CallID string          `json:"callId"`
	Tool   string          `json:"tool"`
	Args   json.RawMessage `json:"args"`
}

// ToolFinishedPayload: a tool call ended (ran, failed, was rejected or was
// never run because the turn stopped). Result is the JSON the model reads.
// DurationMs is the call's run time: the time it waited for the user's
// approval is WaitMs, apart. Approval says how a call that asked went ahead
// (nil when nothing asked: auto mode, a read-only call in safe mode).
type ToolFinishedPayload struct {
	CallID     string          `json:"callId"`
	Tool       string          `json:"tool"`
	Result     json.RawMessage `json:"result"`
	IsError    bool            `json:"isError"`
	DurationMs int64           `json:"durationMs"`
	WaitMs     int64           `json:"waitMs,omitempty"`
	// ThrottledMs is how long the call waited for the calls-per-minute
	// limit before it ran.
	ThrottledMs int64         `json:"throttledMs,omitempty"`
	Approval    *CallApproval `json:"approval,omitempty"`
	// Images are what the call showed the model (view_image).
	Images []ImageRef `json:"images,omitempty"`
	// Hooks are the user's hooks that ran on the call (PreToolUse, then
	// PostToolUse or PostToolUseFailure), each with its verdict; Rewrite
	// is set when a PreToolUse hook rewrote the call's input.
	Hooks   []HookRun    `json:"hooks,omitempty"`
	Rewrite *HookRewrite `json:"rewrite,omitempty"`
}

// ApprovalRequestedPayload asks the user to decide on a call. Preview shows
// what the call will do (a dry-run diff for file edits, the parsed command
// for bash, the arguments otherwise). Rule, when set, is the rule a
// "session" decision would create; when nil, "session" approves this call
// only (the call cannot be covered by a rule).
//
// A re-preview (RepreviewApproval) publishes approval.requested again with
// the same ApprovalID and the fresh preview: it replaces the waiting request
// in place and clears its stale mark.
type ApprovalRequestedPayload struct {
	ApprovalID string  `json:"approvalId"`
	CallID     string  `json:"callId"`
	Tool       string  `json:"tool"`
	Preview    Preview `json:"preview"`
	Rule       *Rule   `json:"rule,omitempty"`
	// Agent names the subagent whose call this is, outermost first
	// ("explore", "general › explore"); empty for the session's own agent.
	// The dialog titles the request "explore › read_file".
	Agent string `json:"agent,omitempty"`
	// Stale lists the previewed paths that changed on disk since this
	// preview. Events never carry it: folding approval.stale sets it in a
	// snapshot's pending approvals (and in the page's store).
	Stale []string `json:"stale,omitempty"`
	// Diagnostics is the language servers' word on the proposal. Events
	// never carry it: folding approval.diagnostics sets it.
	Diagnostics *ApprovalDiagnosticsPayload `json:"diagnostics,omitempty"`
	// Hooks are the PreToolUse hooks that ran on the call before it asked,
	// each with what it said (an ask names the hook that asked); Rewrite
	// is set when one rewrote the call: Preview shows the call as
	// rewritten.
	Hooks   []HookRun    `json:"hooks,omitempty"`
	Rewrite *HookRewrite `json:"rewrite,omitempty"`
}

// ApprovalStalePayload: files shown in the waiting request's preview
// changed on disk, so the preview no longer shows what would run. Approving
// is refused until the request is re-previewed; rejecting still works.
type ApprovalStalePayload struct {
	ApprovalID string   `json:"approvalId"`
	Paths      []string `json:"paths"`
}

// ApprovalResolvedPayload: the approval was answered (by the user, a rule, or
// a cancel, which resolves as reject).
type ApprovalResolvedPayload struct {
	ApprovalID string   `json:"approvalId"`
	Decision   Decision `json:"decision"`
}

// TurnStoppedPayload ends every turn, always exactly once.
type TurnStoppedPayload struct {
	Reason StopReason `json:"reason"`
	// Error is a sentence the UI can show; set when Reason is error.
	Error string `json:"error,omitempty"`
	// ErrorKind classifies Error (see llm.ErrorKind); set when Reason is error.
	ErrorKind string `json:"errorKind,omitempty"`
	Usage     Usage  `json:"usage"`
	// Model is the model that ran the turn (its last request): what Usage
	// is priced at. Empty when the turn made no request.
	Model string `json:"model,omitempty"`
	// Context is how full the model's context window was at the turn's
	// last request; nil when the turn made no request.
	Context *ContextUse `json:"context,omitempty"`
	// Blocked names the call the user rejected; set when Reason is
	// blocked_by_approval.
	Blocked *Blocked `json:"blocked,omitempty"`
	// Plan is the plan the model proposed (propose_plan, in plan mode): the
	// turn stopped (completed) for the user to approve, revise or reject it.
	Plan *ProposedPlan `json:"plan,omitempty"`
	// Cost is what the turn's requests cost in US dollars, each priced at
	// the model that answered it; nil when one had no known price.
	Cost *float64 `json:"cost,omitempty"`
	// Budget names the limit that stopped the turn; set when Reason is
	// budget_exhausted.
	Budget *BudgetStop `json:"budget,omitempty"`
}

// ProposedPlan is a plan waiting for the user: Markdown, and the call that
// proposed it.
type ProposedPlan struct {
	CallID string `json:"callId"`
	Plan   string `json:"plan"`
}

// Blocked is the rejected call that stopped a turn, and the user's note.
type Blocked struct {
	CallID string `json:"callId"`
	Tool   string `json:"tool"`
	Note   string `json:"note,omitempty"`
}

// ProcessStatus is the state of a long-running process.
type ProcessStatus string

const (
	StatusRunning ProcessStatus = "running"
	StatusExited  ProcessStatus = "exited"  // ended on its own
	StatusStopped ProcessStatus = "stopped" // ended after a stop or the session's end
)

// EnumValues lists the values, for the TypeScript generator.
func (ProcessStatus) EnumValues() []string {
	return []string{string(StatusRunning), string(StatusExited), string(StatusStopped)}
}

// ProcessInfo describes a long-running process owned by a session.
type ProcessInfo struct {
	ProcessID string        `json:"processId"`
	PID       int           `json:"pid"`
	Command   string        `json:"command"`
	Cwd       string        `json:"cwd"`
	Status    ProcessStatus `json:"status"`
	// ExitCode is set once the process ended (128+n when killed by signal n).
	ExitCode *int `json:"exitCode,omitempty"`
	// StartedAtMs and EndedAtMs are Unix milliseconds.
	StartedAtMs int64  `json:"startedAtMs"`
	EndedAtMs   *int64 `json:"endedAtMs,omitempty"`
	// Ports the process listens on or printed as a local URL.
	Ports []int `json:"ports,omitempty"`
	// Restored marks a process from an earlier run of the app: ended, with
	// its saved output.
	Restored bool `json:"restored,omitempty"`
	// Network, in the network's allow-list mode, are the domains the
	// process reached and was refused through the proxy so far.
	Network *NetUse `json:"network,omitempty"`
}

// NetUse are the domains a process reached and was refused.
type NetUse struct {
	Reached []string `json:"reached"`
	Refused []string `json:"refused"`
}

// ProcessStartedPayload announces a process.
type ProcessStartedPayload struct {
	ProcessInfo
}

// ProcessUpdatedPayload: something else of a process changed (its ports).
type ProcessUpdatedPayload struct {
	ProcessInfo
}

// ProcessOutputPayload carries output bytes (as UTF-8 text, cut on character
// boundaries) from absolute byte Offset to NextOffset of the process's
// output. Output events of one process may be coalesced when contiguous; an
// Offset above the previous NextOffset means output in between was skipped.
type ProcessOutputPayload struct {
	ProcessID  string `json:"processId"`
	Offset     int64  `json:"offset"`
	NextOffset int64  `json:"nextOffset"`
	Data       string `json:"data"`
}

// ProcessExitedPayload: the process ended, on its own (exited) or stopped.
type ProcessExitedPayload struct {
	ProcessInfo
}

// FsChangeKind says what happened to a path.
type FsChangeKind string

const (
	FsCreate FsChangeKind = "create"
	FsWrite  FsChangeKind = "write"
	FsRemove FsChangeKind = "remove"
	FsRename FsChangeKind = "rename"
)

// EnumValues lists the values, for the TypeScript generator.
func (FsChangeKind) EnumValues() []string {
	return []string{string(FsCreate), string(FsWrite), string(FsRemove), string(FsRename)}
}

// FsChangedPayload lists changed workspace paths (relative, slash-separated)
// and, at the same index, what happened to each.
type FsChangedPayload struct {
	Paths []string       `json:"paths"`
	Kinds []FsChangeKind `json:"kinds"`
	// Truncated: more paths changed than listed (a large burst); views
	// should reload what they show rather than patch it path by path.
	Truncated bool `json:"truncated,omitempty"`
}

// WatchDegradedPayload: the workspace watcher lost events or could not watch
// everything; the UI should treat its file views as possibly stale.
type WatchDegradedPayload struct {
	Reason string `json:"reason"`
}

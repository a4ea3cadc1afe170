package protocol

import "encoding/json"

// TurnStartedPayload: the user's message started a turn.
type TurnStartedPayload struct {
	Prompt string `json:"prompt"`
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
type MessageDonePayload struct {
	MessageID string `json:"messageId"`
	Text      string `json:"text"`
	Cancelled bool   `json:"cancelled,omitempty"`
}

// ToolStartedPayload: a tool call passed the gate and began to run.
type ToolStartedPayload struct {
	CallID string          `json:"callId"`
	Tool   string          `json:"tool"`
	Args   json.RawMessage `json:"args"`
}

// ToolFinishedPayload: a tool call ended (ran, failed, was rejected or was
// never run because the turn stopped). Result is the JSON the model reads.
type ToolFinishedPayload struct {
	CallID     string          `json:"callId"`
	Tool       string          `json:"tool"`
	Result     json.RawMessage `json:"result"`
	IsError    bool            `json:"isError"`
	DurationMs int64           `json:"durationMs"`
}

// ApprovalRequestedPayload asks the user to decide on a call. Preview is
// tool-specific JSON (a diff for file edits, the parsed command for bash).
// Rule, when set, is the rule a "session" decision would create.
type ApprovalRequestedPayload struct {
	ApprovalID string          `json:"approvalId"`
	CallID     string          `json:"callId"`
	Tool       string          `json:"tool"`
	Preview    json.RawMessage `json:"preview"`
	Rule       *Rule           `json:"rule,omitempty"`
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
}

// ProcessInfo describes a long-running process owned by a session.
type ProcessInfo struct {
	ProcessID string `json:"processId"`
	Command   string `json:"command"`
	Cwd       string `json:"cwd"`
	PID       int    `json:"pid"`
	// StartedAtMs is the start time in Unix milliseconds.
	StartedAtMs int64 `json:"startedAtMs"`
	// Running is false once the process exited; ExitCode is then set.
	Running  bool `json:"running"`
	ExitCode *int `json:"exitCode,omitempty"`
}

// ProcessStartedPayload announces a process.
type ProcessStartedPayload struct {
	ProcessInfo
}

// ProcessOutputPayload carries output bytes (as UTF-8 text, invalid bytes
// replaced) starting at absolute byte Offset of the process's output. Output
// events of one process may be coalesced when contiguous.
type ProcessOutputPayload struct {
	ProcessID string `json:"processId"`
	Offset    int64  `json:"offset"`
	Data      string `json:"data"`
}

// ProcessExitedPayload: the process ended. Signal names the signal that
// killed it, if any (ExitCode is then -1).
type ProcessExitedPayload struct {
	ProcessID string `json:"processId"`
	ExitCode  int    `json:"exitCode"`
	Signal    string `json:"signal,omitempty"`
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
}

// WatchDegradedPayload: the workspace watcher lost events or could not watch
// everything; the UI should treat its file views as possibly stale.
type WatchDegradedPayload struct {
	Reason string `json:"reason"`
}

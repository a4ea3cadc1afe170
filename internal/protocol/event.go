// Package protocol holds the types the backend and the UI share: the event
// envelope and one payload per event type, decisions, stop reasons, usage and
// the snapshot the UI resyncs from. It depends on the standard library only.
//
// The TypeScript twin of this package, frontend/src/bridge/protocol.gen.ts, is
// generated from these types (go run ./internal/protocol/cmd/tsgen, or
// make protocol-ts); a test fails when the checked-in file is stale.
//
// Extend, don't rename: event type strings, enum values and JSON field names
// are read by the UI, by session logs and by scripts reading `exec --json`.
package protocol

import (
	"encoding/json"
	"fmt"
)

// WailsEventName is the one Wails event name every backend event is sent on.
const WailsEventName = "gatehouse:event"

// EventType names an event; it selects the payload type.
type EventType string

// The event types. Each has exactly one payload type, listed in [Payloads].
const (
	TurnStarted       EventType = "turn.started"
	MessageDelta      EventType = "message.delta"
	MessageDone       EventType = "message.done"
	ToolStarted       EventType = "tool.started"
	ToolFinished      EventType = "tool.finished"
	ApprovalRequested EventType = "approval.requested"
	ApprovalResolved  EventType = "approval.resolved"
	ApprovalStale     EventType = "approval.stale"
	TurnStopped       EventType = "turn.stopped"
	ProcessStarted    EventType = "process.started"
	ProcessOutput     EventType = "process.output"
	ProcessExited     EventType = "process.exited"
	ProcessUpdated    EventType = "process.updated"
	FsChanged         EventType = "fs.changed"
	WatchDegraded     EventType = "watch.degraded"
	McpUpdated        EventType = "mcp.updated"
	// ImagesDropped: files dragged onto the window from another
	// application were attached (or refused) for the composer.
	ImagesDropped EventType = "images.dropped"
	// ContextCompacted and ContextCompactionUndone: see their payloads.
	ContextCompacted        EventType = "context.compacted"
	ContextCompactionUndone EventType = "context.compaction_undone"
	UndoApplied             EventType = "undo.applied"
	McpWaiting              EventType = "mcp.waiting"
	// BudgetUpdated: the session's spending or limits changed.
	BudgetUpdated EventType = "budget.updated"
	// ApprovalDiagnostics and DiagnosticsUpdated: language servers'
	// diagnostics of a waiting request's proposal, and of the open files.
	ApprovalDiagnostics EventType = "approval.diagnostics"
	DiagnosticsUpdated  EventType = "diagnostics.updated"
	// QuestionAsked and QuestionResolved: an MCP server's question to the
	// user (elicitation) and its answer.
	QuestionAsked    EventType = "question.asked"
	QuestionResolved EventType = "question.resolved"
	// ToolProgress: a running call's progress (MCP notifications/progress).
	ToolProgress EventType = "tool.progress"
	// Agent teams (team.go): teams turned on, a teammate's state, a
	// message between members, the board, a notice (a cap, a mutual wait).
	TeamEnabled     EventType = "team.enabled"
	TeamTeammate    EventType = "team.teammate"
	TeamMessageSent EventType = "team.message"
	TeamBoard       EventType = "team.board"
	TeamNoticed     EventType = "team.notice"
)

// PayloadType pairs an event type with a zero value of its payload.
type PayloadType struct {
	Type    EventType
	Payload any
}

// Payloads lists every event type with its payload type, in a stable order.
// Event decoding and the TypeScript generator both read it.
func Payloads() []PayloadType {
	return []PayloadType{
		{TurnStarted, TurnStartedPayload{}},
		{MessageDelta, MessageDeltaPayload{}},
		{MessageDone, MessageDonePayload{}},
		{ToolStarted, ToolStartedPayload{}},
		{ToolFinished, ToolFinishedPayload{}},
		{ApprovalRequested, ApprovalRequestedPayload{}},
		{ApprovalResolved, ApprovalResolvedPayload{}},
		{ApprovalStale, ApprovalStalePayload{}},
		{TurnStopped, TurnStoppedPayload{}},
		{ProcessStarted, ProcessStartedPayload{}},
		{ProcessOutput, ProcessOutputPayload{}},
		{ProcessExited, ProcessExitedPayload{}},
		{ProcessUpdated, ProcessUpdatedPayload{}},
		{FsChanged, FsChangedPayload{}},
		{WatchDegraded, WatchDegradedPayload{}},
		{McpUpdated, McpUpdatedPayload{}},
		{ImagesDropped, ImagesDroppedPayload{}},
		{ContextCompacted, ContextCompactedPayload{}},
		{ContextCompactionUndone, ContextCompactionUndonePayload{}},
		{UndoApplied, UndoAppliedPayload{}},
		{McpWaiting, McpWaitingPayload{}},
		{BudgetUpdated, BudgetState{}},
		{ApprovalDiagnostics, ApprovalDiagnosticsPayload{}},
		{DiagnosticsUpdated, DiagnosticsUpdatedPayload{}},
		{QuestionAsked, QuestionAskedPayload{}},
		{QuestionResolved, QuestionResolvedPayload{}},
		{ToolProgress, ToolProgressPayload{}},
		{TeamEnabled, TeamState{}},
		{TeamTeammate, Teammate{}},
		{TeamMessageSent, TeamMessage{}},
		{TeamBoard, TeamBoardPayload{}},
		{TeamNoticed, TeamNotice{}},
	}
}

// Event is the envelope of everything the backend tells the UI.
//
// Seq is global for the app's run, starts at 1 and is assigned by the event
// bus after coalescing, so a gap means a lost event. TurnID is empty for
// events outside a turn (process output after the turn ended, fs changes).
//
// ParentCallID and Agent are set on the events of a child session (a
// subagent): the call of the parent session that started the child (its
// delegate_<name> or subagent_start call) and the child's agent name.
// SessionID is then the child's own id. Teammate is set besides on the
// events of a teammate (agent teams) and of its own children: its name.
//
// Payload holds the payload struct value matching Type (TurnStartedPayload
// for TurnStarted, ...). Decoding an Event from JSON fills Payload with that
// struct value; an unknown type decodes to json.RawMessage.
type Event struct {
	Seq       uint64    `json:"seq"`
	SessionID string    `json:"sessionId"`
	TurnID    string    `json:"turnId"`
	Type      EventType `json:"type"`
	Payload   any       `json:"payload"`

	ParentCallID string `json:"parentCallId,omitempty"`
	Agent        string `json:"agent,omitempty"`
	Teammate     string `json:"teammate,omitempty"`
}

// UnmarshalJSON decodes the payload into the struct its type selects.
func (e *Event) UnmarshalJSON(b []byte) error {
	var raw struct {
		Seq       uint64          `json:"seq"`
		SessionID string          `json:"sessionId"`
		TurnID    string          `json:"turnId"`
		Type      EventType       `json:"type"`
		Payload   json.RawMessage `json:"payload"`

		ParentCallID string `json:"parentCallId"`
		Agent        string `json:"agent"`
		Teammate     string `json:"teammate"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*e = Event{Seq: raw.Seq, SessionID: raw.SessionID, TurnID: raw.TurnID, Type: raw.Type,
		ParentCallID: raw.ParentCallID, Agent: raw.Agent, Teammate: raw.Teammate}
	p, err := DecodePayload(raw.Type, raw.Payload)
	if err != nil {
		return err
	}
	e.Payload = p
	return nil
}

// DecodePayload decodes data into the payload struct of t, returned by value.
// An unknown type yields data itself as a json.RawMessage.
func DecodePayload(t EventType, data json.RawMessage) (any, error) {
	switch t {
	case TurnStarted:
		return decode[TurnStartedPayload](t, data)
	case MessageDelta:
		return decode[MessageDeltaPayload](t, data)
	case MessageDone:
		return decode[MessageDonePayload](t, data)
	case ToolStarted:
		return decode[ToolStartedPayload](t, data)
	case ToolFinished:
		return decode[ToolFinishedPayload](t, data)
	case ApprovalRequested:
		return decode[ApprovalRequestedPayload](t, data)
	case ApprovalResolved:
		return decode[ApprovalResolvedPayload](t, data)
	case ApprovalStale:
		return decode[ApprovalStalePayload](t, data)
	case TurnStopped:
		return decode[TurnStoppedPayload](t, data)
	case ProcessStarted:
		return decode[ProcessStartedPayload](t, data)
	case ProcessOutput:
		return decode[ProcessOutputPayload](t, data)
	case ProcessExited:
		return decode[ProcessExitedPayload](t, data)
	case ProcessUpdated:
		return decode[ProcessUpdatedPayload](t, data)
	case FsChanged:
		return decode[FsChangedPayload](t, data)
	case McpUpdated:
		return decode[McpUpdatedPayload](t, data)
	case ImagesDropped:
		return decode[ImagesDroppedPayload](t, data)
	case WatchDegraded:
		return decode[WatchDegradedPayload](t, data)
	case ContextCompacted:
		return decode[ContextCompactedPayload](t, data)
	case ContextCompactionUndone:
		return decode[ContextCompactionUndonePayload](t, data)
	case UndoApplied:
		return decode[UndoAppliedPayload](t, data)
	case McpWaiting:
		return decode[McpWaitingPayload](t, data)
	case BudgetUpdated:
		return decode[BudgetState](t, data)
	case ApprovalDiagnostics:
		return decode[ApprovalDiagnosticsPayload](t, data)
	case DiagnosticsUpdated:
		return decode[DiagnosticsUpdatedPayload](t, data)
	case QuestionAsked:
		return decode[QuestionAskedPayload](t, data)
	case QuestionResolved:
		return decode[QuestionResolvedPayload](t, data)
	case ToolProgress:
		return decode[ToolProgressPayload](t, data)
	case TeamEnabled:
		return decode[TeamState](t, data)
	case TeamTeammate:
		return decode[Teammate](t, data)
	case TeamMessageSent:
		return decode[TeamMessage](t, data)
	case TeamBoard:
		return decode[TeamBoardPayload](t, data)
	case TeamNoticed:
		return decode[TeamNotice](t, data)
	}
	return data, nil
}

func decode[T any](t EventType, data json.RawMessage) (any, error) {
	var v T
	if len(data) == 0 || string(data) == "null" {
		return v, nil
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("protocol: payload of %s: %w", t, err)
	}
	return v, nil
}

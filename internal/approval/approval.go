// Package approval is the gate every tool call passes: it decides from the
// session's mode, its rules and the tool whether a call runs, asks the host
// through a Gateway when it must, and runs exactly what the user saw (see
// DESIGN.md, "Approval").
//
// The decision is made in one place, [Gate.Middleware], from data the tools
// give ([tools.Gated]: the files a call changes, the command it runs, a dry
// run) and never by permission code inside a tool. Approval answers "should
// this run?"; the workspace boundary answers "where may it reach?" in every
// mode, auto included.
package approval

import "gatehouse/internal/protocol"

// Mode is the session's approval mode: the one type of it,
// protocol.ApprovalMode (the settings store its string, the page gets it
// generated).
type Mode = protocol.ApprovalMode

const (
	// Manual asks for every call.
	Manual = protocol.ApprovalManual
	// Safe asks for every call that is not read-only (tools.ReadOnlyCall).
	Safe = protocol.ApprovalSafe
	// Auto asks for nothing.
	Auto = protocol.ApprovalAuto
	// Plan offers only reading tools (the runtime narrows the surface) and
	// asks as Safe does for them.
	Plan = protocol.ApprovalPlan
)

// ParseMode checks s (protocol.ParseApprovalMode, the one parser).
func ParseMode(s string) (Mode, error) { return protocol.ParseApprovalMode(s) }

// asks reports whether a call asks in mode m, before session rules.
func asks(m Mode, readOnly bool) bool {
	switch m {
	case Auto:
		return false
	case Safe, Plan:
		return !readOnly
	}
	return true // manual, and any unknown mode
}

// RecordKind says what a Record reports.
type RecordKind string

const (
	// RecordDecision: a call that needed approval was decided.
	RecordDecision RecordKind = "decision"
	// RecordRuleAdded and RecordRuleRevoked: a session rule changed.
	RecordRuleAdded   RecordKind = "rule.added"
	RecordRuleRevoked RecordKind = "rule.revoked"
)

// DecidedBy says who decided a call.
type DecidedBy string

const (
	ByUser   DecidedBy = "user"   // answered through the gateway
	ByRule   DecidedBy = "rule"   // covered by session rules (RuleIDs)
	ByCancel DecidedBy = "cancel" // the turn was cancelled while it waited
	ByPolicy DecidedBy = "policy" // the standing policy (Record.Standing)
	ByMode   DecidedBy = "mode"   // the approval mode, without asking (audit only)
)

// Record is what the hook hears, for the session log: every decision on a
// call that needed approval, and every rule added or revoked.
type Record struct {
	Kind RecordKind `json:"kind"`
	// Decision records.
	ApprovalID string             `json:"approvalId,omitempty"`
	CallID     string             `json:"callId,omitempty"`
	Tool       string             `json:"tool,omitempty"`
	Decision   *protocol.Decision `json:"decision,omitempty"`
	By         DecidedBy          `json:"by,omitempty"`
	RuleIDs    []string           `json:"ruleIds,omitempty"`
	// Standing are the standing rules that decided (By policy).
	Standing []protocol.StandingRef `json:"standing,omitempty"`
	// Rule records; also set on a decision record when it created a rule.
	Rule *protocol.Rule `json:"rule,omitempty"`
}

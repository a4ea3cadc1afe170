package protocol

import (
	"encoding/json"
	"fmt"
)

// StopReason says why a turn stopped.
type StopReason string

const (
	StopCompleted         StopReason = "completed"
	StopBlockedByApproval StopReason = "blocked_by_approval"
	StopCancelled         StopReason = "cancelled"
	StopMaxSteps          StopReason = "max_steps"
	StopError             StopReason = "error"
	// StopBudgetExhausted: a spending or token limit was reached
	// (TurnStoppedPayload.Budget names it).
	StopBudgetExhausted StopReason = "budget_exhausted"
)

// EnumValues lists the values, for the TypeScript generator.
func (StopReason) EnumValues() []string {
	return []string{string(StopCompleted), string(StopBlockedByApproval), string(StopCancelled),
		string(StopMaxSteps), string(StopError), string(StopBudgetExhausted)}
}

// Valid reports whether r is one of the listed values.
func (r StopReason) Valid() bool { return validEnum(r.EnumValues(), string(r)) }

// ApprovalMode is when the gate asks: manual before every call, safe before
// every call that is not read-only, auto never (the workspace boundary holds
// in every mode). plan offers the model only tools that read (and
// propose_plan), asks as safe does, and ends the turn with a plan for the
// user to approve into another mode.
type ApprovalMode string

const (
	ApprovalManual ApprovalMode = "manual"
	ApprovalSafe   ApprovalMode = "safe"
	ApprovalAuto   ApprovalMode = "auto"
	ApprovalPlan   ApprovalMode = "plan"
)

// EnumValues lists the values, for the TypeScript generator.
func (ApprovalMode) EnumValues() []string {
	return []string{string(ApprovalManual), string(ApprovalSafe), string(ApprovalAuto), string(ApprovalPlan)}
}

// ParseApprovalMode is the one parser of an approval mode, for every place
// one comes from (a flag, the saved settings, the page).
func ParseApprovalMode(s string) (ApprovalMode, error) {
	m := ApprovalMode(s)
	if !validEnum(m.EnumValues(), s) {
		return "", fmt.Errorf("unknown approval mode %q: use plan, manual, safe or auto", s)
	}
	return m, nil
}

// DecisionKind is the user's answer to an approval request.
type DecisionKind string

const (
	// DecisionOnce approves this call only.
	DecisionOnce DecisionKind = "once"
	// DecisionSession approves this call and creates a session rule.
	DecisionSession DecisionKind = "session"
	// DecisionReject refuses the call; Note is passed to the model.
	DecisionReject DecisionKind = "reject"
	// DecisionPartial applies only the listed Files and Hunks (apply_patch).
	DecisionPartial DecisionKind = "partial"
	// DecisionAlways approves this call and saves the offered rule as a
	// standing allow rule (Scope: "workspace", the default, or
	// "everywhere"); it covers later sessions too.
	DecisionAlways DecisionKind = "always"
)

// EnumValues lists the values, for the TypeScript generator.
func (DecisionKind) EnumValues() []string {
	return []string{string(DecisionOnce), string(DecisionSession), string(DecisionReject), string(DecisionPartial), string(DecisionAlways)}
}

// Valid reports whether k is one of the listed values.
func (k DecisionKind) Valid() bool { return validEnum(k.EnumValues(), string(k)) }

// Decision is one shape for every approval answer, from every host.
// A hunk id is "path#n", the n-th @@ chunk (from 1) of that file's operation.
type Decision struct {
	Kind  DecisionKind `json:"kind"`
	Note  string       `json:"note,omitempty"`
	Files []string     `json:"files,omitempty"`
	Hunks []string     `json:"hunks,omitempty"`
	// Scope is where an always decision saves its rule: "workspace" ("")
	// or "everywhere".
	Scope string `json:"scope,omitempty"`
	// Unconfined, with kind once on a bash exec or start, runs that one command
	// outside the OS sandbox (still supervised). Only the user sets it, in
	// the dialog; the model cannot ask for it, no rule carries it, and the
	// session log records it with the decision.
	Unconfined bool `json:"unconfined,omitempty"`
}

// Rule is a session approval rule, created by a decision of kind session.
// Exactly one of its shapes applies:
//
//   - file tools (write_file, apply_patch): Files, workspace-relative paths
//     with slashes; a later call of Tool is covered when every file it
//     touches (both paths of a move) is in the files of the session's rules
//     for Tool;
//   - bash: Commands, each the exact words of one simple command as the
//     dialog showed it, with Action (exec or start) and Cwd (the absolute
//     folder it ran in). A later call is covered only when it has the same
//     action and cwd and every simple command of its parsed line is one of
//     the Commands of a rule, word for word: no extra argument or option, no
//     NAME=value word, no expansion (variables, substitutions, globs,
//     braces, tildes), no redirection but fd copies (2>&1) and /dev/null.
//     Nothing opaque rides (`bash -c`, env, xargs, sudo, subshells,
//     functions, multi-line scripts, writes into .git);
//   - any other tool: neither; every call of Tool is covered.
type Rule struct {
	ID       string     `json:"id,omitempty"`
	Tool     string     `json:"tool"`
	Files    []string   `json:"files,omitempty"`
	Commands [][]string `json:"commands,omitempty"`
	Action   string     `json:"action,omitempty"`
	Cwd      string     `json:"cwd,omitempty"`
	// Domain (web_fetch) is the one host name whose URLs the rule allows,
	// exactly: no subdomain, no parent.
	Domain string `json:"domain,omitempty"`
	// Summary is a short sentence for the UI that spells out the scope
	// ("run exactly `npm test` (exec, in the workspace root)").
	Summary string `json:"summary"`
	// Agent is the subagent whose dialog made the rule ("" the session's
	// own agent). A rule belongs to the session either way: it covers the
	// same call by the parent and by every child.
	Agent string `json:"agent,omitempty"`
}

// CallApproval says how a call that needed approval went ahead.
type CallApproval struct {
	// By is "user" (answered in the dialog) or "rule" (covered by the
	// session's rules, without asking).
	By string `json:"by"`
	// Rules are the session rules that covered the call (By "rule"), as
	// they were then: a rule revoked later still names what it allowed.
	Rules []Rule `json:"rules,omitempty"`
	// Standing are the standing policy's rules that decided the call (By
	// "policy"): each with its layer and file.
	Standing []StandingRef `json:"standing,omitempty"`
}

// StandingRef names a standing policy rule where a decision cites it.
type StandingRef struct {
	ID       string `json:"id"`
	Decision string `json:"decision"`
	Layer    string `json:"layer"`
	File     string `json:"file,omitempty"`
	Summary  string `json:"summary"`
	Reason   string `json:"reason,omitempty"`
}

// Usage counts tokens; a turn's usage is the sum over its model requests.
type Usage struct {
	PromptTokens     int64 `json:"promptTokens"`
	CompletionTokens int64 `json:"completionTokens"`
	TotalTokens      int64 `json:"totalTokens"`
	// CachedTokens is the part of PromptTokens served from the prompt cache.
	CachedTokens int64 `json:"cachedTokens"`
}

// Add returns the sum of u and v.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		PromptTokens:     u.PromptTokens + v.PromptTokens,
		CompletionTokens: u.CompletionTokens + v.CompletionTokens,
		TotalTokens:      u.TotalTokens + v.TotalTokens,
		CachedTokens:     u.CachedTokens + v.CachedTokens,
	}
}

// ContextUse is how full the model's context window is.
type ContextUse struct {
	// Tokens is the prompt size of the last model request: as the server
	// counted it, or Gatehouse's estimate when Estimated is set (the
	// server sent no usage).
	Tokens    int64 `json:"tokens"`
	Estimated bool  `json:"estimated,omitempty"`
	// Window is the model's context window in tokens.
	Window int64 `json:"window"`
	// Trimmed counts old tool outputs cleared during the turn to fit the
	// window (micro-compaction); the model sees a one-line stub instead.
	Trimmed int `json:"trimmed,omitempty"`
	// WindowSource says where Window came from: "server" (the model
	// server's /models metadata), "known_model" (Gatehouse's table of
	// model families), "setting" or "default" (see llm.WindowSource).
	WindowSource string `json:"windowSource,omitempty"`
	// Compacted is set when older turns are replaced by a checkpoint
	// summary in what the model is sent.
	Compacted bool `json:"compacted,omitempty"`
}

// ItemKind says what a transcript item is.
type ItemKind string

const (
	ItemUser      ItemKind = "user"
	ItemAssistant ItemKind = "assistant"
	ItemTool      ItemKind = "tool"
	ItemStop      ItemKind = "stop"
	// ItemCompaction marks where older turns were replaced by a summary in
	// what the model is sent; the transcript keeps them.
	ItemCompaction ItemKind = "compaction"
	ItemUndo       ItemKind = "undo"
	// ItemMcpWaiting: the turn runs without the tools of MCP servers still
	// starting (Servers).
	ItemMcpWaiting ItemKind = "mcp_waiting"
	// ItemTeamMessage: a message between team members that the lead did
	// not send (its own are its team_message calls), told as it came.
	ItemTeamMessage ItemKind = "team_message"
)

// EnumValues lists the values, for the TypeScript generator.
func (ItemKind) EnumValues() []string {
	return []string{string(ItemUser), string(ItemAssistant), string(ItemTool), string(ItemStop), string(ItemCompaction), string(ItemUndo), string(ItemMcpWaiting), string(ItemTeamMessage)}
}

// TranscriptItem is one entry of a session's transcript as the UI draws it.
// Which fields are set depends on Kind:
//
//	user:      ID, TurnID, Text, Images, Replaces
//	assistant: ID (messageId), TurnID, Text, Streaming, Cancelled
//	tool:      ID (callId), TurnID, Tool, Args, and once finished
//	           Result, IsError, DurationMs, WaitMs, ThrottledMs, Approval, Hooks, Rewrite (Running is true before)
//	stop:      TurnID, Reason, Error, ErrorKind, Usage, Model, Context, Cost, Budget
//	compaction: ID (compactionId), TurnID (empty when done by hand between
//	           turns), Text (the summary), Compaction, Context (after)
//	undo:      ID (the undo's unit), Undo
//	mcp_waiting: TurnID, Servers
//	team_message: ID (the message's id), TurnID, Message
//
// An assistant item may carry Reasoning and ReasoningModel (see
// MessageDonePayload); the UI does not show them.
type TranscriptItem struct {
	Kind       ItemKind        `json:"kind"`
	ID         string          `json:"id,omitempty"`
	TurnID     string          `json:"turnId"`
	Text       string          `json:"text,omitempty"`
	Images     []ImageRef      `json:"images,omitempty"`
	Replaces   string          `json:"replaces,omitempty"`
	Streaming  bool            `json:"streaming,omitempty"`
	Cancelled  bool            `json:"cancelled,omitempty"`
	Tool       string          `json:"tool,omitempty"`
	Args       json.RawMessage `json:"args,omitempty"`
	Result     json.RawMessage `json:"result,omitempty"`
	IsError    bool            `json:"isError,omitempty"`
	DurationMs int64           `json:"durationMs,omitempty"`
	WaitMs     int64           `json:"waitMs,omitempty"`
	Approval   *CallApproval   `json:"approval,omitempty"`
	Running    bool            `json:"running,omitempty"`
	// Progress is a running call's last tool.progress (nil once it ends).
	Progress    *ToolProgressPayload `json:"progress,omitempty"`
	Reason      StopReason           `json:"reason,omitempty"`
	Error       string               `json:"error,omitempty"`
	ErrorKind   string               `json:"errorKind,omitempty"`
	Usage       *Usage               `json:"usage,omitempty"`
	Model       string               `json:"model,omitempty"`
	Context     *ContextUse          `json:"context,omitempty"`
	Blocked     *Blocked             `json:"blocked,omitempty"`
	Plan        *ProposedPlan        `json:"plan,omitempty"`
	Cost        *float64             `json:"cost,omitempty"`
	Budget      *BudgetStop          `json:"budget,omitempty"`
	ThrottledMs int64                `json:"throttledMs,omitempty"`
	Compaction  *Compaction          `json:"compaction,omitempty"`
	Undo        *UndoAppliedPayload  `json:"undo,omitempty"`
	Servers     []string             `json:"servers,omitempty"`
	Hooks       []HookRun            `json:"hooks,omitempty"`
	Rewrite     *HookRewrite         `json:"rewrite,omitempty"`
	Message     *TeamMessage         `json:"message,omitempty"`
	// Reasoning and ReasoningModel: see MessageDonePayload.
	Reasoning      []json.RawMessage `json:"reasoning,omitempty"`
	ReasoningModel string            `json:"reasoningModel,omitempty"`
}

// Compaction describes a summary compaction.
type Compaction struct {
	// KeepFrom is the id of the first message sent as it is after the
	// summary: a turn id (its prompt), a message id or a call id (its
	// call and result). Empty: none, the summary is followed by what
	// comes after it.
	KeepFrom string `json:"keepFrom,omitempty"`
	// Prompt is the id of the turn's prompt when the summary, written
	// during that turn, stands for it too: it is sent before the summary.
	Prompt string `json:"prompt,omitempty"`
	// Replaced counts the messages the summary stands for.
	Replaced int `json:"replaced"`
	// Manual is set when the user asked for it (button or /compact).
	Manual bool `json:"manual,omitempty"`
	// TokensBefore is the estimated prompt size before the compaction.
	TokensBefore int64 `json:"tokensBefore"`
	// Undone is set once the user undid it (before the next turn): the
	// model is sent the full history again.
	Undone bool `json:"undone,omitempty"`
}

// Snapshot is what the UI resyncs from after a seq gap: the current
// session's state as of LastSeq. Every event with a seq above LastSeq is news.
type Snapshot struct {
	SessionID string `json:"sessionId"`
	// TurnID is the running turn, empty when idle.
	TurnID           string                     `json:"turnId"`
	Transcript       []TranscriptItem           `json:"transcript"`
	PendingApprovals []ApprovalRequestedPayload `json:"pendingApprovals"`
	Processes        []ProcessInfo              `json:"processes"`
	LastSeq          uint64                     `json:"lastSeq"`
	// Children are the transcripts of the session's subagents (and
	// theirs), by the call that started each (an event's parentCallId).
	Children map[string]ChildTranscript `json:"children,omitempty"`
	// Budget is the session's spending and limits (nil: not metered).
	Budget *BudgetState `json:"budget,omitempty"`
	// PendingQuestions are MCP servers' questions waiting for the user.
	PendingQuestions []QuestionAskedPayload `json:"pendingQuestions,omitempty"`
	// Team is the session's agent team (nil: teams are off; team.go).
	Team *TeamState `json:"team,omitempty"`
}

// ChildTranscript is a subagent's transcript as its parent's view shows it
// under the call that started it: folded from the events carrying that
// parentCallId exactly as a session's own transcript is.
type ChildTranscript struct {
	SessionID string           `json:"sessionId"`
	Agent     string           `json:"agent"`
	TurnID    string           `json:"turnId"`
	Items     []TranscriptItem `json:"items"`
}

func validEnum(values []string, v string) bool {
	for _, x := range values {
		if x == v {
			return true
		}
	}
	return false
}

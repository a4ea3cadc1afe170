package protocol

// Agent teams (experimental; off until a session turns them on).
//
// A lead session (the one the user talks to) spawns teammates: long-lived
// child sessions of an agent definition, each with its own transcript. They
// share one board of tasks and send each other messages. The shapes the
// window reads, kept stable (extend, don't rename):
//
//	Snapshot.team            TeamState | absent (teams off)
//	TeamState                {enabled, maxTeammates, teammates: Teammate[], board: TeamTask[], messages: TeamMessage[], notices: TeamNotice[]}
//	Teammate                 {name, agent, state, task, callId, sessionId, reason?, approvalId?, turns, wakes, worktree?}
//	  state                  working | waiting (an approval of its call waits for the user) | idle | stopped
//	TeamTask                 {id, title, status, owner?, dependsOn?, notes?, updatedBy?}
//	  status                 open | in_progress | blocked | done
//	TeamMessage              {id, from, to, text}   from/to: a teammate's name, "lead", to may be "all"
//	TeamNotice               {kind: cap | mutual_wait | budget | stopped, text, names?}
//
// Events (on the lead's session id; a teammate's own transcript events carry
// the lead's team_spawn call id as parentCallId, its name as agent and as
// teammate, so Snapshot.children[teammate.callId] is its live transcript):
//
//	team.enabled     TeamState        (teams turned on; the whole state)
//	team.teammate    Teammate         (a teammate appeared or its state changed)
//	team.message     TeamMessage      (a message was sent)
//	team.board       TeamBoardPayload {tasks, taskId?, by?} (the board changed; the whole board)
//	team.notice      TeamNotice       (a cap stopped messages or wakes, a mutual wait, the budget stopped the team)
//
// Bound methods (internal/gui): TeamsEnable() TeamState turns teams on for the
// open session (the /experimental teams built-in); Team() TeamState reads it
// (TeamState{enabled:false} when off); TeammateTranscript(name) its items;
// TeamStop(name) stops one teammate.

// TeammateState is what a teammate is doing, as the Team panel says it.
type TeammateState string

const (
	// TeammateWorking: its turn runs.
	TeammateWorking TeammateState = "working"
	// TeammateWaiting: its turn waits for the user to answer an approval.
	TeammateWaiting TeammateState = "waiting"
	// TeammateIdle: no turn runs; a message wakes it.
	TeammateIdle TeammateState = "idle"
	// TeammateStopped: team_stop, the budget, a closed session or a cap
	// stopped it; nothing wakes it again.
	TeammateStopped TeammateState = "stopped"
)

// EnumValues lists the values, for the TypeScript generator.
func (TeammateState) EnumValues() []string {
	return []string{string(TeammateWorking), string(TeammateWaiting), string(TeammateIdle), string(TeammateStopped)}
}

// Teammate is one member of the team as the lead and the window see it.
type Teammate struct {
	// Name is the teammate's name in the team (messages are addressed by
	// it; its approval dialogs are titled "name › tool").
	Name string `json:"name"`
	// Agent is the definition it runs ("general", "reviewer").
	Agent string        `json:"agent"`
	State TeammateState `json:"state"`
	// Task is what the lead gave it at team_spawn.
	Task string `json:"task"`
	// CallID is the lead's team_spawn call: the parentCallId of the
	// teammate's events and its key in Snapshot.children.
	CallID string `json:"callId"`
	// SessionID is the teammate's own session id (its events' sessionId).
	SessionID string `json:"sessionId"`
	// Reason is why its last turn stopped (a stop reason) or why it was
	// stopped, in words.
	Reason string `json:"reason,omitempty"`
	// ApprovalID is the approval it waits for while State is waiting.
	ApprovalID string `json:"approvalId,omitempty"`
	// Turns counts the turns it ran; Wakes those a message started.
	Turns int `json:"turns"`
	Wakes int `json:"wakes"`
	// Worktree is the folder it works in when not the lead's workspace:
	// its own git worktree (team_spawn with worktree), on branch
	// WorktreeBranch.
	Worktree       string `json:"worktree,omitempty"`
	WorktreeBranch string `json:"worktreeBranch,omitempty"`
}

// TeamTaskStatus is a board task's status.
type TeamTaskStatus string

const (
	TaskOpen       TeamTaskStatus = "open"
	TaskInProgress TeamTaskStatus = "in_progress"
	TaskBlocked    TeamTaskStatus = "blocked"
	TaskDone       TeamTaskStatus = "done"
)

// EnumValues lists the values, for the TypeScript generator.
func (TeamTaskStatus) EnumValues() []string {
	return []string{string(TaskOpen), string(TaskInProgress), string(TaskBlocked), string(TaskDone)}
}

// Valid reports whether s is one of the listed values.
func (s TeamTaskStatus) Valid() bool { return validEnum(s.EnumValues(), string(s)) }

// TeamTask is one task of the team's board.
type TeamTask struct {
	ID     string         `json:"id"`
	Title  string         `json:"title"`
	Status TeamTaskStatus `json:"status"`
	// Owner is the teammate (or "lead") working on it; "" while nobody is.
	Owner string `json:"owner,omitempty"`
	// DependsOn are ids of tasks that must be done first.
	DependsOn []string `json:"dependsOn,omitempty"`
	// Notes are what members wrote on it, oldest first ("name: text").
	Notes []string `json:"notes,omitempty"`
	// UpdatedBy is who changed it last.
	UpdatedBy string `json:"updatedBy,omitempty"`
}

// TeamLead is the lead's name in messages and on the board; TeamAll
// addresses a message to every member but its sender.
const (
	TeamLead = "lead"
	TeamAll  = "all"
)

// TeamMessage is a message between members.
type TeamMessage struct {
	ID   string `json:"id"`
	From string `json:"from"`
	To   string `json:"to"`
	Text string `json:"text"`
}

// TeamNoticeKind says why a notice was given.
type TeamNoticeKind string

const (
	// NoticeCap: a cap on messages or wakes stopped a member.
	NoticeCap TeamNoticeKind = "cap"
	// NoticeMutualWait: every member left waits on another's task.
	NoticeMutualWait TeamNoticeKind = "mutual_wait"
	// NoticeBudget: the session's budget stopped the team.
	NoticeBudget TeamNoticeKind = "budget"
	// NoticeStopped: a teammate was stopped (team_stop, the window).
	NoticeStopped TeamNoticeKind = "stopped"
)

// EnumValues lists the values, for the TypeScript generator.
func (TeamNoticeKind) EnumValues() []string {
	return []string{string(NoticeCap), string(NoticeMutualWait), string(NoticeBudget), string(NoticeStopped)}
}

// TeamNotice is a line the team gives the lead and the user: why messages
// stopped, who waits on whom.
type TeamNotice struct {
	Kind TeamNoticeKind `json:"kind"`
	Text string         `json:"text"`
	// Names are the members it is about.
	Names []string `json:"names,omitempty"`
}

// TeamBoardPayload is the board after a change: every task, and the task
// changed and who changed it.
type TeamBoardPayload struct {
	Tasks  []TeamTask `json:"tasks"`
	TaskID string     `json:"taskId,omitempty"`
	By     string     `json:"by,omitempty"`
}

// TeamState is the whole team of a session.
type TeamState struct {
	Enabled bool `json:"enabled"`
	// MaxTeammates is how many may be spawned (the setting).
	MaxTeammates int           `json:"maxTeammates"`
	Teammates    []Teammate    `json:"teammates"`
	Board        []TeamTask    `json:"board"`
	Messages     []TeamMessage `json:"messages"`
	Notices      []TeamNotice  `json:"notices"`
}

package proc

import (
	"errors"
	"fmt"
	"time"
)

// Status of a process started with Start.
type Status string

const (
	StatusRunning Status = "running"
	StatusExited  Status = "exited"  // ended on its own
	StatusStopped Status = "stopped" // ended after Stop or CloseAll
)

// Info describes one process of a registry. It is a copy: changing it changes
// nothing in the registry.
type Info struct {
	ProcessID string     `json:"processId"`
	PID       int        `json:"pid"`
	Command   string     `json:"command"`
	Cwd       string     `json:"cwd"`
	Status    Status     `json:"status"`
	ExitCode  *int       `json:"exitCode,omitempty"` // 128+n when killed by signal n
	StartedAt time.Time  `json:"startedAt"`
	EndedAt   *time.Time `json:"endedAt,omitempty"`
	Ports     []int      `json:"ports,omitempty"` // TCP ports it listens on or printed as a local URL
	// Confined: it runs (ran) confined by the sandbox.
	Confined bool `json:"confined,omitempty"`
	// Network, in the network's allow-list mode, are the domains it
	// reached through the proxy so far and those refused.
	Network *NetUse `json:"network,omitempty"`
	// Restored marks an entry loaded from an earlier run of the app: it shows
	// saved output and cannot be written to.
	Restored bool `json:"restored,omitempty"`
}

// Chunk is a piece of a process's output, as sent to an Observer. Data starts
// at absolute offset Offset and ends at NextOffset (Data is cut on UTF-8
// boundaries while the process runs; NextOffset counts bytes, not UTF-16 units).
// When Offset is greater than the NextOffset of the previous chunk of the same
// process, the output in between was skipped: fetch it with Logs if needed.
type Chunk struct {
	ProcessID  string `json:"processId"`
	Offset     int64  `json:"offset"`
	NextOffset int64  `json:"nextOffset"`
	Data       string `json:"data"`
}

// Logs is a page of a process's output read with Registry.Logs.
type Logs struct {
	Content    []byte `json:"-"`
	Offset     int64  `json:"offset"`
	NextOffset int64  `json:"nextOffset"`
	// Truncated says the requested offset is older than what the ring buffer
	// still holds: the output in between is lost.
	Truncated bool   `json:"truncated"`
	Status    Status `json:"status"`
	ExitCode  *int   `json:"exitCode,omitempty"`
}

// Error codes carried by the errors of this package (see tools.FailErr).
const (
	CodeUnknownProcess = "unknown_process"
	CodeNotRunning     = "process_not_running"
	CodeClosed         = "registry_closed"
)

// Error is an error of this package with a stable code.
type Error struct {
	Code string
	Msg  string
}

func (e *Error) Error() string     { return e.Msg }
func (e *Error) ErrorCode() string { return e.Code }

// ErrClosed is returned by Start and Exec after CloseAll.
var ErrClosed = &Error{CodeClosed, "the session's processes were closed; no new process can start"}

func unknownProcess(id string, known []string) error {
	msg := fmt.Sprintf("unknown process %q", id)
	if len(known) == 0 {
		msg += " (this session has no processes)"
	} else {
		msg += fmt.Sprintf(" (known: %v)", known)
	}
	return &Error{CodeUnknownProcess, msg}
}

func notRunning(id string, st Status) error {
	return &Error{CodeNotRunning, fmt.Sprintf("process %q is not running (status %s)", id, st)}
}

// IsUnknownProcess reports whether err says a process id is unknown.
func IsUnknownProcess(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == CodeUnknownProcess
}

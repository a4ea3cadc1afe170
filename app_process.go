package main

import (
	"fmt"
	"unicode/utf8"

	"gatehouse/internal/proc"
	"gatehouse/internal/protocol"
)

// procEvents forwards a session's process events to the event stream.
// Process events carry no turn: a process outlives the turn that started it.
type procEvents struct {
	app       *App
	sessionID string
}

func (p procEvents) publish(t protocol.EventType, payload any) {
	p.app.bus.Publish(protocol.Event{SessionID: p.sessionID, Type: t, Payload: payload})
}

func (p procEvents) Started(i proc.Info) {
	p.publish(protocol.ProcessStarted, protocol.ProcessStartedPayload{ProcessInfo: processInfo(i)})
}
func (p procEvents) Updated(i proc.Info) {
	p.publish(protocol.ProcessUpdated, protocol.ProcessUpdatedPayload{ProcessInfo: processInfo(i)})
}
func (p procEvents) Exited(i proc.Info) {
	info := processInfo(i)
	p.publish(protocol.ProcessExited, protocol.ProcessExitedPayload{ProcessInfo: info})
	p.app.alerts.processExited(info)
}
func (p procEvents) Output(c proc.Chunk) {
	p.publish(protocol.ProcessOutput, protocol.ProcessOutputPayload{ProcessID: c.ProcessID, Offset: c.Offset, NextOffset: c.NextOffset, Data: c.Data})
}

func processInfo(i proc.Info) protocol.ProcessInfo {
	out := protocol.ProcessInfo{
		ProcessID: i.ProcessID, PID: i.PID, Command: i.Command, Cwd: i.Cwd,
		Status: protocol.ProcessStatus(i.Status), ExitCode: i.ExitCode,
		StartedAtMs: i.StartedAt.UnixMilli(), Ports: i.Ports, Restored: i.Restored,
	}
	if i.EndedAt != nil {
		ms := i.EndedAt.UnixMilli()
		out.EndedAtMs = &ms
	}
	return out
}

// ProcessLogs is a page of a process's output for the panel's terminal.
type ProcessLogs struct {
	// Data is the output as text; a character cut at the page's end is left
	// for the next page.
	Data       string                 `json:"data"`
	Offset     int64                  `json:"offset"`
	NextOffset int64                  `json:"nextOffset"`
	Truncated  bool                   `json:"truncated"`
	Status     protocol.ProcessStatus `json:"status"`
	ExitCode   *int                   `json:"exitCode,omitempty"`
}

func (a *App) procs() (*proc.Registry, error) {
	s := a.currentSession()
	if s == nil {
		return nil, fmt.Errorf("no session is open")
	}
	return s.procs, nil
}

// Processes lists the open session's processes.
func (a *App) Processes() []protocol.ProcessInfo {
	out := []protocol.ProcessInfo{}
	if r, err := a.procs(); err == nil {
		for _, i := range r.List() {
			out = append(out, processInfo(i))
		}
	}
	return out
}

// ProcessLogs reads a process's output from offset (negative: the last
// -offset bytes), at most limit bytes.
func (a *App) ProcessLogs(id string, offset int64, limit int) (ProcessLogs, error) {
	r, err := a.procs()
	if err != nil {
		return ProcessLogs{}, err
	}
	l, err := r.Logs(id, offset, limit)
	if err != nil {
		return ProcessLogs{}, err
	}
	data := l.Content
	// Leave a character cut at the end for the next page.
	for cut := 0; cut < utf8.UTFMax && len(data) > 0 && !utf8.Valid(data); cut++ {
		data = data[:len(data)-1]
	}
	return ProcessLogs{Data: string(data), Offset: l.Offset, NextOffset: l.Offset + int64(len(data)),
		Truncated: l.Truncated, Status: protocol.ProcessStatus(l.Status), ExitCode: l.ExitCode}, nil
}

// ProcessWrite types input into a process's terminal. The user's own action:
// it does not pass the approval gate.
func (a *App) ProcessWrite(id, input string) error {
	r, err := a.procs()
	if err != nil {
		return err
	}
	_, err = r.Write(id, []byte(input))
	return err
}

// ProcessResize tells a process its terminal's size.
func (a *App) ProcessResize(id string, rows, cols int) error {
	r, err := a.procs()
	if err != nil {
		return err
	}
	if rows <= 0 || cols <= 0 || rows > 1000 || cols > 1000 {
		return fmt.Errorf("bad terminal size %dx%d", rows, cols)
	}
	return r.Resize(id, uint16(rows), uint16(cols))
}

// ProcessStop stops a process: SIGTERM to its group, then SIGKILL.
func (a *App) ProcessStop(id string) (protocol.ProcessInfo, error) {
	r, err := a.procs()
	if err != nil {
		return protocol.ProcessInfo{}, err
	}
	i, err := r.Stop(id)
	return processInfo(i), err
}

// RunningProcesses names the processes still running, for the quit dialog.
func (a *App) RunningProcesses() []protocol.ProcessInfo {
	var out []protocol.ProcessInfo
	for _, p := range a.Processes() {
		if p.Status == protocol.StatusRunning {
			out = append(out, p)
		}
	}
	return out
}

package gui

import (
	"fmt"

	"gatehouse/internal/proc"
	"gatehouse/internal/protocol"
	"gatehouse/internal/session"
)

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
	return s.Processes(), nil
}

// Processes lists the open session's processes.
func (a *App) Processes() []protocol.ProcessInfo {
	out := []protocol.ProcessInfo{}
	if r, err := a.procs(); err == nil {
		for _, i := range r.List() {
			out = append(out, session.ProcessInfo(i))
		}
	}
	return out
}

// ProcessLogs reads a process's output from offset (negative: the last
// -offset bytes), at most limit bytes.
func (a *App) ProcessLogs(id string, offset int64, limit int) (ProcessLogs, error) {
	s := a.currentSession()
	if s == nil {
		return ProcessLogs{}, errNoSession
	}
	l, err := s.ProcessText(id, offset, limit)
	if err != nil {
		return ProcessLogs{}, err
	}
	return ProcessLogs{Data: l.Text, Offset: l.Offset, NextOffset: l.NextOffset,
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
	return session.ProcessInfo(i), err
}

// RunningProcesses names the processes still running in every open
// session (each tab's), for the quit dialog.
func (a *App) RunningProcesses() []protocol.ProcessInfo {
	var out []protocol.ProcessInfo
	tabs, _ := a.openTabs()
	for _, t := range tabs {
		if t.sess == nil {
			continue
		}
		for _, i := range t.sess.Processes().List() {
			if p := session.ProcessInfo(i); p.Status == protocol.StatusRunning {
				out = append(out, p)
			}
		}
	}
	return out
}

// ProcessRestart starts an ended process's command again in the same folder,
// which passes the workspace boundary again. Like Stop it is the user's own
// action from the panel: it runs only a command the model already ran here.
func (a *App) ProcessRestart(id string) (protocol.ProcessInfo, error) {
	s := a.currentSession()
	if s == nil {
		return protocol.ProcessInfo{}, errNoSession
	}
	if in, err := s.Processes().Info(id); err == nil && in.Status == proc.StatusRunning {
		return protocol.ProcessInfo{}, fmt.Errorf("process %s is still running: stop it first", id)
	}
	i, err := s.RestartProcess(id)
	if err != nil {
		return protocol.ProcessInfo{}, err
	}
	return session.ProcessInfo(i), nil
}

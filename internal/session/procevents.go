package session

import (
	"gatehouse/internal/proc"
	"gatehouse/internal/protocol"
)

// ProcEvents is a proc.Observer that publishes a session's process events.
// They carry no turn id: a process outlives the turn that started it.
type ProcEvents struct {
	Events    interface{ Publish(protocol.Event) }
	SessionID string
	// OnExit, when set, is called after a process's exit was published
	// (the app raises a desktop notification for failures).
	OnExit func(protocol.ProcessInfo)
}

func (p ProcEvents) publish(t protocol.EventType, payload any) {
	p.Events.Publish(protocol.Event{SessionID: p.SessionID, Type: t, Payload: payload})
}

// Started implements proc.Observer.
func (p ProcEvents) Started(i proc.Info) {
	p.publish(protocol.ProcessStarted, protocol.ProcessStartedPayload{ProcessInfo: ProcessInfo(i)})
}

// Updated implements proc.Observer.
func (p ProcEvents) Updated(i proc.Info) {
	p.publish(protocol.ProcessUpdated, protocol.ProcessUpdatedPayload{ProcessInfo: ProcessInfo(i)})
}

// Exited implements proc.Observer.
func (p ProcEvents) Exited(i proc.Info) {
	info := ProcessInfo(i)
	p.publish(protocol.ProcessExited, protocol.ProcessExitedPayload{ProcessInfo: info})
	if p.OnExit != nil {
		p.OnExit(info)
	}
}

// Output implements proc.Observer.
func (p ProcEvents) Output(c proc.Chunk) {
	p.publish(protocol.ProcessOutput, protocol.ProcessOutputPayload{ProcessID: c.ProcessID, Offset: c.Offset, NextOffset: c.NextOffset, Data: c.Data})
}

// ProcessInfo converts a process's info to the protocol's.
func ProcessInfo(i proc.Info) protocol.ProcessInfo {
	out := protocol.ProcessInfo{
		ProcessID: i.ProcessID, PID: i.PID, Command: i.Command, Cwd: i.Cwd,
		Status: protocol.ProcessStatus(i.Status), ExitCode: i.ExitCode,
		StartedAtMs: i.StartedAt.UnixMilli(), Ports: i.Ports, Restored: i.Restored,
	}
	if i.EndedAt != nil {
		ms := i.EndedAt.UnixMilli()
		out.EndedAtMs = &ms
	}
	if n := i.Network; n != nil {
		out.Network = &protocol.NetUse{Reached: n.Reached, Refused: n.Refused}
	}
	return out
}

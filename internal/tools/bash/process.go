package bash

import (
	"gatehouse/internal/proc"
	"gatehouse/internal/tools"
)

// started is a start's result: the process, and whether the user ran it
// outside the sandbox.
type started struct {
	proc.Info
	Unconfined string `json:"unconfined,omitempty"`
}

// start starts a long-running process; unconfined (the user chose so in
// the dialog) runs it outside the sandbox.
func (t *Tool) start(a args, unconfined bool) (tools.Result, error) {
	dir, res, ok := t.resolve(a.Cwd)
	if !ok {
		return res, nil
	}
	launch := t.c.Registry.Start
	if unconfined {
		launch = t.c.Registry.StartUnconfined
	}
	in, err := launch(a.Command, dir)
	if err != nil {
		return tools.FailErr(err, tools.CodeIOError), nil
	}
	out := started{Info: in}
	if unconfined {
		out.Unconfined = "The user chose to run this one process outside the OS sandbox; later commands run confined again."
	}
	return tools.OK(out)
}

func (t *Tool) status(a args) (tools.Result, error) {
	in, err := t.c.Registry.Info(a.ProcessID)
	if err != nil {
		return tools.FailErr(err, tools.CodeUnknownProcess), nil
	}
	return tools.OK(in)
}

func (t *Tool) stop(a args) (tools.Result, error) {
	in, err := t.c.Registry.Stop(a.ProcessID)
	if err != nil {
		return tools.FailErr(err, tools.CodeUnknownProcess), nil
	}
	return tools.OK(in)
}

func (t *Tool) write(a args) (tools.Result, error) {
	n, err := t.c.Registry.Write(a.ProcessID, []byte(*a.Input))
	if err != nil {
		return tools.FailErr(err, tools.CodeIOError), nil
	}
	return tools.OK(struct {
		BytesWritten int `json:"bytesWritten"`
	}{n})
}

type logsResult struct {
	Content    string      `json:"content"`
	Offset     int64       `json:"offset"`
	NextOffset int64       `json:"nextOffset"`
	Truncated  bool        `json:"truncated"`
	Status     proc.Status `json:"status"`
	ExitCode   *int        `json:"exitCode,omitempty"`
}

// logs returns a page of output as text: offsets count raw bytes, the page
// starts and ends on UTF-8 boundaries (nextOffset backs up over a rune whose
// bytes have not all arrived), and escape sequences and redraws are cleaned.
func (t *Tool) logs(a args) (tools.Result, error) {
	limit := t.c.LogsLimit
	if a.Limit != nil {
		limit = min(*a.Limit, t.c.LogsMax)
	}
	off := int64(-1)
	if a.Offset != nil {
		off = *a.Offset
	}
	l, err := t.c.Registry.Logs(a.ProcessID, off, limit)
	if err != nil {
		return tools.FailErr(err, tools.CodeUnknownProcess), nil
	}
	b := l.Content
	if k := leadingContinuation(b); k > 0 { // landed inside a rune: skip its rest
		b, l.Offset = b[k:], l.Offset+int64(k)
	}
	// A rune cut by the limit, or whose last bytes the process has not written
	// yet, is left for the next page.
	if k := partialRune(b); k > 0 && (len(l.Content) == limit || l.Status == proc.StatusRunning) {
		b, l.NextOffset = b[:len(b)-k], l.NextOffset-int64(k)
	}
	return tools.OK(logsResult{Content: cleanTerminal(b), Offset: l.Offset, NextOffset: l.NextOffset,
		Truncated: l.Truncated, Status: l.Status, ExitCode: l.ExitCode})
}

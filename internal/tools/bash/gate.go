package bash

import (
	"context"
	"encoding/json"
	"fmt"

	"gatehouse/internal/protocol"
	"gatehouse/internal/sandbox"
	"gatehouse/internal/tools"
)

// Prepare implements tools.Gated: it says which command a call runs and
// where, or which process it addresses. It starts nothing; the approval gate
// parses the command and decides.
func (t *Tool) Prepare(_ context.Context, raw json.RawMessage) (*tools.Prepared, tools.Result, bool) {
	var a args
	if res, ok := tools.DecodeArgs(raw, &a); !ok {
		return nil, res, false
	}
	if res, ok := a.check(); !ok {
		return nil, res, false
	}
	c := &protocol.CommandPreview{Action: a.Action, Command: a.Command, ProcessID: a.ProcessID}
	switch a.Action {
	case "exec", "start":
		dir, res, ok := t.resolve(a.Cwd)
		if !ok {
			return nil, res, false
		}
		c.Cwd = dir
		if p := t.c.Registry.Policy(dir); p != nil {
			c.Confined, c.Sandbox = true, sandbox.LineOf(*p)
		}
	case "write", "stop":
		if a.Input != nil {
			c.Input = *a.Input
		}
		if in, err := t.c.Registry.Info(a.ProcessID); err == nil {
			c.Command, c.Cwd = in.Command, in.Cwd
		}
	}
	return &tools.Prepared{
		Command: c,
		Run: func(ctx context.Context, d protocol.Decision) (tools.Result, error) {
			// The folder shown (and a rule's folder) is where it runs: a
			// symlink repointed while the dialog waited refuses the call.
			if a.Action == "exec" || a.Action == "start" {
				dir, res, ok := t.resolve(a.Cwd)
				if !ok {
					return res, nil
				}
				if dir != c.Cwd {
					return tools.Fail(tools.CodeChangedSincePreview, fmt.Sprintf(
						"changed since preview: cwd %q now resolves to %s, not to %s as shown; nothing was run", a.Cwd, dir, c.Cwd), a.Cwd), nil
				}
			}
			if d.Kind == protocol.DecisionOnce && d.Unconfined { // the user's choice, this call only
				switch a.Action {
				case "exec":
					return t.exec(ctx, a, true)
				case "start":
					return t.start(a, true)
				}
			}
			return t.Run(ctx, raw)
		},
	}, tools.Result{}, true
}

var _ tools.Gated = (*Tool)(nil)

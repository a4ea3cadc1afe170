package runtime

import (
	"context"
	"encoding/json"
	"path/filepath"

	"gatehouse/internal/tools"
	"gatehouse/internal/workspace"
)

// StageInstructions tells the session's instructions which files each call
// that ran worked on, so a subfolder's AGENTS.md reaches the model the first
// time it reads or edits a file below it.
const StageInstructions = "instructions"

// touchInstructions is the instructions stage: after a call ran, the
// files its plan changes and the path its arguments name (the file tools'
// "path") count as worked on.
func (s *Session) touchInstructions(_ tools.Tool, next tools.Handler) tools.Handler {
	return func(ctx context.Context, call tools.Call) (tools.Result, error) {
		res, err := next(ctx, call)
		if err != nil || res.IsError || res.Rejected {
			return res, err
		}
		var paths []string
		if call.Plan != nil {
			paths = append(paths, call.Plan.Paths...)
		}
		var a struct {
			Path string `json:"path"`
		}
		if json.Unmarshal(call.Args, &a) == nil && a.Path != "" {
			paths = append(paths, a.Path)
		}
		for _, p := range paths {
			abs, err := s.ws.Resolve(p, workspace.Read)
			if err != nil {
				continue
			}
			if rel, err := filepath.Rel(s.ws.Root(), abs); err == nil && filepath.IsLocal(rel) {
				s.ins.Touched(rel)
			}
		}
		return res, err
	}
}

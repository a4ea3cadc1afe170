package lsp

import (
	"bytes"
	"context"
	"encoding/json"

	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

// EditTools are the tools whose applied edits get diagnostics.
var EditTools = map[string]bool{"apply_patch": true, "write_file": true}

// Middleware compares, around every applied edit of a file tool, the
// diagnostics of the files it touches before and after, and ends the
// result the model reads with what the edit introduced or fixed
// ("diagnostics", Diff.Text). It sits inside the gate: it sees only
// calls that run, once approved, and never waits for the user.
func (m *Manager) Middleware(_ tools.Tool, next tools.Handler) tools.Handler {
	return func(ctx context.Context, call tools.Call) (tools.Result, error) {
		if !EditTools[call.Name] || call.Plan == nil {
			return next(ctx, call)
		}
		files := m.planFiles(call.Plan.Files)
		if len(files) == 0 {
			return next(ctx, call)
		}
		before := m.Check(ctx, Disk(files...), false)
		res, err := next(ctx, call)
		if err != nil || res.IsError || res.Rejected {
			return res, err
		}
		after := before // no file known before: nothing to compare, said once
		if len(before.Files) > 0 {
			after = m.Check(ctx, Disk(files...), false)
		}
		d := Compare(before, after)
		return withDiagnostics(res, d), nil
	}
}

// planFiles are the absolute paths of the files of a plan a server
// checks (both ends of a move).
func (m *Manager) planFiles(fs []protocol.FilePreview) []string {
	var out []string
	seen := map[string]bool{}
	add := func(rel string) {
		if rel == "" {
			return
		}
		abs := m.Paths(rel)[0]
		if !seen[abs] && m.Handles(abs) {
			seen[abs] = true
			out = append(out, abs)
		}
	}
	for _, f := range fs {
		add(first(f.ResolvedPath, f.Path))
		add(first(f.ResolvedFrom, f.MovedFrom))
	}
	return out
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// withDiagnostics ends a JSON object result with the diff: "diagnostics",
// the text the model reads, and "diagnosticsDiff", the same as data for
// the card. Nothing to say leaves the result as it is.
func withDiagnostics(res tools.Result, d Diff) tools.Result {
	if d.Empty() {
		return res
	}
	out := bytes.TrimRight(res.Output, " \n\t")
	if len(out) < 2 || out[len(out)-1] != '}' {
		return res
	}
	text, _ := json.Marshal(d.Text())
	data, _ := json.Marshal(d)
	var b bytes.Buffer
	b.Write(out[:len(out)-1])
	if len(bytes.TrimSpace(out[1:len(out)-1])) > 0 {
		b.WriteByte(',')
	}
	b.WriteString(`"diagnosticsDiff":`)
	b.Write(data)
	b.WriteString(`,"diagnostics":`)
	b.Write(text)
	b.WriteByte('}')
	res.Output = b.Bytes()
	return res
}

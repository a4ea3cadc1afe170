package acp

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"gatehouse/internal/approval"
	"gatehouse/internal/protocol"
	"gatehouse/internal/session"
	"gatehouse/internal/workspace"
)

// toolKind is the ACP kind of a built-in tool; other tools (providers')
// are "other".
func toolKind(tool string) sdk.ToolKind {
	switch tool {
	case "read_file", "list_dir":
		return sdk.ToolKindRead
	case "grep", "glob":
		return sdk.ToolKindSearch
	case "write_file", "apply_patch":
		return sdk.ToolKindEdit
	case "bash":
		return sdk.ToolKindExecute
	}
	return sdk.ToolKindOther
}

// callArgs are the arguments of the built-in tools the updates show.
type callArgs struct {
	Path      string `json:"path"`
	Pattern   string `json:"pattern"`
	Patch     string `json:"patch"`
	Action    string `json:"action"`
	Command   string `json:"command"`
	ProcessID string `json:"processId"`
	StartLine int    `json:"startLine"`
}

// describe gives a call's title and the files it touches (absolute).
func describe(root, tool string, raw json.RawMessage) (string, []sdk.ToolCallLocation) {
	var a callArgs
	_ = json.Unmarshal(raw, &a) // a call with bad arguments still gets a title
	loc := func(p string, line int) []sdk.ToolCallLocation {
		if p == "" {
			p = "."
		}
		l := sdk.ToolCallLocation{Path: abs(root, p)}
		if line > 0 {
			l.Line = sdk.Ptr(line)
		}
		return []sdk.ToolCallLocation{l}
	}
	switch tool {
	case "read_file":
		return "Read " + a.Path, loc(a.Path, a.StartLine)
	case "list_dir":
		return "List " + orDot(a.Path), loc(a.Path, 0)
	case "grep":
		return fmt.Sprintf("Search for %q in %s", a.Pattern, orDot(a.Path)), loc(a.Path, 0)
	case "glob":
		return fmt.Sprintf("Find %s in %s", a.Pattern, orDot(a.Path)), loc(a.Path, 0)
	case "write_file":
		return "Write " + a.Path, loc(a.Path, 0)
	case "apply_patch":
		paths := patchPaths(a.Patch)
		var locs []sdk.ToolCallLocation
		for _, p := range paths {
			locs = append(locs, sdk.ToolCallLocation{Path: abs(root, p)})
		}
		return "Edit " + strings.Join(paths, ", "), locs
	case "bash":
		switch a.Action {
		case "exec", "start", "":
			return a.Command, nil
		}
		return strings.TrimSpace("bash " + a.Action + " " + a.ProcessID), nil
	}
	return tool, nil
}

func orDot(p string) string {
	if p == "" {
		return "."
	}
	return p
}

func abs(root, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(root, filepath.FromSlash(p))
}

// patchPaths are the files an apply_patch text names, in order.
func patchPaths(patch string) []string {
	var out []string
	for _, line := range strings.Split(patch, "\n") {
		for _, h := range []string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "} {
			if p, ok := strings.CutPrefix(strings.TrimSpace(line), h); ok {
				out = append(out, strings.TrimSpace(p))
			}
		}
	}
	return out
}

// startCall is the tool_call of a call that began (it may yet wait for
// approval): pending.
func startCall(ws *workspace.Workspace, id, tool string, args json.RawMessage) sdk.SessionUpdate {
	title, locs := describe(ws.Root(), tool, args)
	return sdk.StartToolCall(sdk.ToolCallId(id), title, sdk.WithStartKind(toolKind(tool)),
		sdk.WithStartStatus(sdk.ToolCallStatusPending), sdk.WithStartLocations(locs), sdk.WithStartRawInput(args))
}

// finishCall is the last tool_call_update of a call: completed or failed,
// with its content: the diffs of a file change, the command and its output
// for bash, the failure's message.
func finishCall(p protocol.ToolFinishedPayload, diffs []sdk.ToolCallContent) sdk.SessionUpdate {
	status := sdk.ToolCallStatusCompleted
	if p.IsError {
		status = sdk.ToolCallStatusFailed
	}
	content := resultContent(p.Tool, p.Result, p.IsError)
	if !p.IsError && len(diffs) > 0 {
		content = diffs
	}
	return sdk.UpdateToolCall(sdk.ToolCallId(p.CallID), sdk.WithUpdateStatus(status),
		sdk.WithUpdateContent(content), sdk.WithUpdateRawOutput(p.Result))
}

// resultContent shows a result as text: for bash the command and its
// output, for a failure its message, for a file change whose files could
// not be shown whole the unified diff of each file.
func resultContent(tool string, result json.RawMessage, isError bool) []sdk.ToolCallContent {
	var r struct {
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
		Command     string `json:"command"`
		ExitCode    *int   `json:"exitCode"`
		Stdout      string `json:"stdout"`
		Stderr      string `json:"stderr"`
		Content     string `json:"content"`
		FileChanges []struct {
			Path string `json:"path"`
			Diff string `json:"diff"`
		} `json:"fileChanges"`
	}
	_ = json.Unmarshal(result, &r)
	text := func(s string) []sdk.ToolCallContent { return []sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(s))} }
	switch {
	case isError && r.Error != nil:
		return text(r.Error.Message)
	case tool == "bash" && r.Command != "":
		var b strings.Builder
		fmt.Fprintf(&b, "$ %s\n", r.Command)
		b.WriteString(r.Stdout)
		if r.Stderr != "" {
			if r.Stdout != "" && !strings.HasSuffix(r.Stdout, "\n") {
				b.WriteString("\n")
			}
			b.WriteString(r.Stderr)
		}
		if r.ExitCode != nil {
			if s := b.String(); !strings.HasSuffix(s, "\n") {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "exit code %d", *r.ExitCode)
		}
		return text(b.String())
	case tool == "bash" && r.Content != "":
		return text(r.Content)
	case tool == "apply_patch" && len(r.FileChanges) > 0:
		var out []sdk.ToolCallContent
		for _, f := range r.FileChanges {
			out = append(out, sdk.ToolContent(sdk.TextBlock("```diff\n"+f.Diff+"```")))
		}
		return out
	}
	return nil
}

// previewContent is a diff per file of a file change's dry run (path, old
// text, new text), so the editor shows its own diff; the unified diff as
// text when the preview left the contents out (too large); diagnostics is
// the language servers' summary of what the change introduces ("" none).
func previewContent(pv protocol.Preview, diagnostics string) []sdk.ToolCallContent {
	var out []sdk.ToolCallContent
	for _, f := range pv.Files {
		switch {
		case f.ContentOmitted:
			out = append(out, sdk.ToolContent(sdk.TextBlock("```diff\n"+f.Diff+"```")))
		case f.Operation == protocol.FileAdd:
			out = append(out, sdk.ToolDiffContent(f.Path, f.NewContent))
		default:
			out = append(out, sdk.ToolDiffContent(f.Path, f.NewContent, f.OldContent))
		}
	}
	warns := approval.Warnings(pv)
	if diagnostics != "" {
		warns = append(warns, diagnostics)
	}
	if c := pv.Command; pv.Kind == protocol.PreviewCommand && c != nil && c.Command != "" {
		text := "$ " + c.Command
		if len(warns) > 0 {
			text += "\n\n" + strings.Join(warns, "\n")
		}
		out = append(out, sdk.ToolContent(sdk.TextBlock(text)))
	} else if len(warns) > 0 {
		out = append(out, sdk.ToolContent(sdk.TextBlock(strings.Join(warns, "\n"))))
	}
	if pv.Kind == protocol.PreviewArgs && pv.ArgsText != "" {
		out = append(out, sdk.ToolContent(sdk.TextBlock(pv.ArgsText)))
	}
	return out
}

// previewLocations are the files of a file change, absolute.
func previewLocations(root string, pv protocol.Preview) []sdk.ToolCallLocation {
	var out []sdk.ToolCallLocation
	for _, f := range pv.Files {
		out = append(out, sdk.ToolCallLocation{Path: abs(root, f.Path)})
	}
	return out
}

// replay is a saved transcript as the updates that showed it: the user's
// messages, the assistant's, each call with its outcome, and the message a
// blocked turn ended with.
func replay(s *acpSession, past *session.Loaded) []sdk.SessionUpdate {
	if past == nil {
		return nil
	}
	var out []sdk.SessionUpdate
	for _, it := range past.Items {
		switch it.Kind {
		case protocol.ItemUser:
			out = append(out, sdk.UpdateUserMessageText(it.Text))
		case protocol.ItemAssistant:
			if it.Text != "" {
				out = append(out, sdk.UpdateAgentMessageText(it.Text))
			}
		case protocol.ItemTool:
			out = append(out, startCall(s.ws, it.ID, it.Tool, it.Args))
			out = append(out, finishCall(protocol.ToolFinishedPayload{CallID: it.ID, Tool: it.Tool, Result: it.Result,
				IsError: it.IsError}, nil))
		case protocol.ItemStop:
			if it.Reason == protocol.StopBlockedByApproval {
				out = append(out, sdk.UpdateAgentMessageText(blockedMessage(it.Blocked)))
			}
		}
	}
	return out
}

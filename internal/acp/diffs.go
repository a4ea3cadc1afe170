package acp

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"

	sdk "github.com/coder/acp-go-sdk"

	"gatehouse/internal/sniff"
	"gatehouse/internal/workspace"
)

// maxImage is the largest file a diff update carries whole; a larger one
// gets no diff (the result's own summary stays).
const maxImage = 1 << 20

// image is a file as it was before a call changed it: its text, or absent.
type image struct {
	path   string // as the model gave it
	text   string
	absent bool
}

// editedPaths are the files a write_file or apply_patch call names (for a
// move, both); nil for any other tool.
func editedPaths(tool string, args json.RawMessage) []string {
	var a callArgs
	if json.Unmarshal(args, &a) != nil {
		return nil
	}
	switch tool {
	case "write_file":
		if a.Path != "" {
			return []string{a.Path}
		}
	case "apply_patch":
		return patchPaths(a.Patch)
	}
	return nil
}

// readImage reads path through the boundary; ok is false when it cannot be
// shown as a diff (refused, unreadable, binary or too large).
func readImage(ws *workspace.Workspace, path string) (image, bool) {
	abs, err := ws.Resolve(path, workspace.Read)
	if err != nil {
		return image{}, false
	}
	fi, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return image{path: path, absent: true}, true
	}
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxImage {
		return image{}, false
	}
	b, _, err := workspace.ReadRegular(abs, maxImage) // never waits on a FIFO swapped in
	if err != nil || !sniff.Text(b) {
		return image{}, false
	}
	return image{path: path, text: string(b)}, true
}

// beforeImages are the files a call is about to change, read when it
// starts (tool.started is delivered before the call runs).
func beforeImages(ws *workspace.Workspace, tool string, args json.RawMessage) []image {
	var out []image
	for _, p := range editedPaths(tool, args) {
		if im, ok := readImage(ws, p); ok {
			out = append(out, im)
		}
	}
	return out
}

// diffContent is a diff per file the call changed (path, old text, new
// text), from the images taken before it ran and the disk now. A file
// created has no old text; a file deleted has empty new text.
func diffContent(ws *workspace.Workspace, before []image) []sdk.ToolCallContent {
	var out []sdk.ToolCallContent
	for _, b := range before {
		after, ok := readImage(ws, b.path)
		if !ok || after.absent == b.absent && after.text == b.text {
			continue
		}
		if b.absent {
			out = append(out, sdk.ToolDiffContent(b.path, after.text))
		} else {
			out = append(out, sdk.ToolDiffContent(b.path, after.text, b.text))
		}
	}
	return out
}

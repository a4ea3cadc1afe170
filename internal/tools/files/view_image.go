package files

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"gatehouse/internal/images"
	"gatehouse/internal/tools"
	"gatehouse/internal/workspace"
)

//go:embed view_image.md
var viewImageDoc string

// ViewImage is the view_image tool: it reads an image file through the
// same boundary as read_file and returns it for the model to look at
// (tools.Result.Images). The agent offers it only to models that see.
type ViewImage struct {
	ws    *workspace.Workspace
	store *images.Store
}

// NewViewImage returns view_image working in ws, saving what it shows in
// store (nil: not saved, so a resumed session cannot send it again).
func NewViewImage(ws *workspace.Workspace, store *images.Store) *ViewImage {
	return &ViewImage{ws: ws, store: store}
}

// Spec implements tools.Tool.
func (t *ViewImage) Spec() tools.Spec {
	return tools.Spec{Name: "view_image", Description: viewImageDoc, ReadOnly: true, Parameters: schema(`{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "Image file path, relative to the workspace root"}
  },
  "required": ["path"],
  "additionalProperties": false
}`)}
}

type viewImageResult struct {
	Path       string `json:"path"`
	MIME       string `json:"mime"`
	Width      int    `json:"width"`
	Height     int    `json:"height"`
	OrigWidth  int    `json:"origWidth"`
	OrigHeight int    `json:"origHeight"`
	Note       string `json:"note"`
}

// Run implements tools.Tool.
func (t *ViewImage) Run(ctx context.Context, raw json.RawMessage) (tools.Result, error) {
	var a struct {
		Path string `json:"path"`
	}
	if r, ok := tools.DecodeArgs(raw, &a); !ok {
		return r, nil
	}
	abs, err := t.ws.Resolve(a.Path, workspace.Read)
	if err != nil {
		return tools.FailErr(err, tools.CodeIOError), nil
	}
	fi, err := os.Stat(abs)
	switch {
	case os.IsNotExist(err):
		return tools.FailErr(perr(tools.CodeNotFound, a.Path, "no such file"), ""), nil
	case err != nil:
		return tools.FailErr(perr(tools.CodeIOError, a.Path, "%v", err), ""), nil
	case fi.IsDir():
		return tools.FailErr(perr(tools.CodeIsDirectory, a.Path, "is a folder, not an image"), ""), nil
	}
	b, trunc, err := workspace.ReadRegular(abs, images.MaxBytes+1)
	var nr *workspace.NotRegularError
	switch {
	case errors.As(err, &nr):
		return tools.FailErr(perr(tools.CodeNotRegular, a.Path, "is %s, not a regular file", nr.Kind), ""), nil
	case err != nil:
		return tools.FailErr(perr(tools.CodeIOError, a.Path, "%v", err), ""), nil
	case trunc:
		return tools.FailErr(perr(tools.CodeIOError, a.Path, "the image is over 20 MB"), ""), nil
	}
	im, err := images.Prepare(filepath.Base(abs), b)
	if err != nil {
		return tools.FailErr(perr(tools.CodeInvalidArguments, a.Path, "%v", err), ""), nil
	}
	im.Name = filepath.Base(abs)
	if t.store != nil {
		if _, err := t.store.Put(im); err != nil {
			return tools.Result{}, err
		}
	}
	note := "The image follows."
	if im.Scaled() {
		note = fmt.Sprintf("The image follows, scaled down from %d×%d.", im.OrigWidth, im.OrigHeight)
	}
	res, err := tools.OK(viewImageResult{Path: t.ws.Rel(abs), MIME: im.MIME, Width: im.Width, Height: im.Height,
		OrigWidth: im.OrigWidth, OrigHeight: im.OrigHeight, Note: note})
	res.Images = []images.Image{im}
	return res, err
}

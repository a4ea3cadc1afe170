package gui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"gatehouse/internal/attach"
	"gatehouse/internal/images"
	"gatehouse/internal/protocol"
)

// filesDropped attaches the files the user dragged onto the window from
// another application, as the composer's paste and drop do, and tells the
// page (images.dropped). WebKitGTK hands such a drop to the page as a URI
// list without the files, so the window's own drop handler (GTK's, through
// desktop.Runtime.OnFileDrop) reads them: only the paths GTK delivered,
// never a path the page names.
func (a *App) filesDropped(paths []string) {
	if a.workspaceRoot() == "" {
		return
	}
	p := protocol.ImagesDroppedPayload{Files: []protocol.DroppedFile{}}
	for _, path := range paths {
		if path != "" {
			p.Files = append(p.Files, a.attachDropped(path))
		}
	}
	if len(p.Files) > 0 {
		a.bus.Publish(protocol.Event{Type: protocol.ImagesDropped, Payload: p})
	}
}

func (a *App) attachDropped(path string) protocol.DroppedFile {
	f := protocol.DroppedFile{Name: filepath.Base(path)}
	data, size, err := readDropped(path)
	f.Size = size
	if err != nil {
		f.Error = err.Error()
		return f
	}
	im, err := a.attacher().AddBytes(context.Background(), f.Name, data)
	var refused *attach.RefusedError
	switch {
	case errors.As(err, &refused):
		f.Refused, f.Model, f.CanMark = refused.Reason, refused.Model, refused.CanMark
	case err != nil:
		f.Error = err.Error()
	default:
		ref := im.Ref()
		f.Image = &ref
	}
	return f
}

// readDropped reads a dropped regular file of at most images.MaxBytes.
func readDropped(path string) ([]byte, int64, error) {
	name := filepath.Base(path)
	file, err := os.Open(path)
	if err != nil {
		return nil, 0, fmt.Errorf("%s cannot be read: %v", name, err)
	}
	defer file.Close()
	fi, err := file.Stat()
	if err != nil {
		return nil, 0, err
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("%s is not a file", name)
	}
	if fi.Size() > images.MaxBytes {
		return nil, fi.Size(), fmt.Errorf("%s is over 20 MB; images are limited to 20 MB", name)
	}
	data, err := io.ReadAll(io.LimitReader(file, images.MaxBytes+1))
	if err == nil && len(data) > images.MaxBytes {
		err = fmt.Errorf("%s is over 20 MB; images are limited to 20 MB", name)
	}
	return data, fi.Size(), err
}

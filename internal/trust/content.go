package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"gatehouse/internal/workspace"
)

// Content is what a kind of content in a folder holds now: the bytes that
// were read, which are the bytes hashed and the bytes a caller loads (read
// once, so what is trusted is what is loaded).
type Content struct {
	// Hash covers every loaded file's path and bytes; "" when there is
	// nothing.
	Hash string
	// Files are the workspace-relative paths loaded, sorted.
	Files []string
	// Data holds each file's bytes, by its path in Files.
	Data map[string][]byte `json:"-"`
	// Refused are the files of this kind that are not loaded, with why: a
	// symbolic link (its target could change after the user said yes, or
	// lie outside the folder), a FIFO, a device, a file too large.
	Refused []Refused
	// Warnings say what the user should know before trusting (KindGit:
	// a config that includes a file in the working tree).
	Warnings []string `json:",omitempty"`
}

// Refused is a file left out of a Content, with the reason in words.
type Refused struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Empty reports that the folder has no content of this kind to load:
// nothing to trust, nothing to load (Refused may still list files).
func (c Content) Empty() bool { return len(c.Files) == 0 }

// Read reads and hashes the content of kind in folder. Files are read once,
// regular files only, without following any symbolic link below folder and
// capped in size; what cannot be read so is listed in Refused.
func Read(folder, kind string) (Content, error) {
	rels, ok := Paths[kind]
	if !ok {
		return Content{}, fmt.Errorf("trust: unknown kind %q", kind)
	}
	c := Content{Data: map[string][]byte{}}
	for _, rel := range rels {
		if err := c.readTree(folder, rel); err != nil {
			return Content{}, err
		}
	}
	switch kind {
	case KindGit:
		c.readGitReach(folder)
	case KindHooks:
		c.readHooksReach(folder)
	}
	c.sortContent()
	if len(c.Files) == 0 {
		return Content{Refused: c.Refused}, nil
	}
	h := sha256.New()
	for _, f := range c.Files {
		b := c.Data[f]
		fmt.Fprintf(h, "%s\x00%d\x00", f, len(b))
		h.Write(b)
	}
	c.Hash = hex.EncodeToString(h.Sum(nil))
	return c, nil
}

// readTree adds the regular files at rel (a file or a folder walked
// without following links) below folder.
func (c *Content) readTree(folder, rel string) error {
	root, err := workspace.NoLinks(folder, filepath.FromSlash(rel))
	var nr *workspace.NotRegularError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case errors.As(err, &nr):
		c.refuse(nr.Path, nr.Kind+": only regular files are loaded, never through a link")
		return nil
	case err != nil:
		return err
	}
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		r, _ := filepath.Rel(folder, p)
		r = filepath.ToSlash(r)
		if d.IsDir() {
			return nil
		}
		if k := workspace.Kind(d.Type()); k != "" {
			c.refuse(r, k+": only regular files are loaded, never through a link")
			return nil
		}
		b, trunc, err := workspace.ReadNoLinks(folder, filepath.FromSlash(r), maxFileBytes)
		switch {
		case errors.As(err, &nr):
			c.refuse(r, nr.Kind+": only regular files are loaded, never through a link")
		case err != nil:
			return err
		case trunc:
			c.refuse(r, fmt.Sprintf("larger than %d MiB: not loaded", maxFileBytes>>20))
		default:
			c.Files = append(c.Files, r)
			c.Data[r] = b
		}
		return nil
	})
}

func (c *Content) refuse(path, reason string) {
	c.Refused = append(c.Refused, Refused{Path: path, Reason: path + " is " + reason})
}

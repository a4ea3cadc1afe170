package usercmd

import (
	"errors"
	"path"
	"sort"

	"gatehouse/internal/trust"
)

// A workspace's own commands, .gatehouse/commands/*.md, become /name only
// once the user trusts the folder for them (trust.KindCommands, per folder
// and content hash, as agent definitions): a command's prompt is sent as
// the user's own message, so a cloned repository must not be able to put
// words in it unseen. A changed file needs trust again.

// Workspace returns the commands of ws's .gatehouse/commands/ when the
// user trusts them as they are now, read from the very bytes that were
// trusted; none otherwise. Files that cannot be a command are reported.
func Workspace(ts *trust.Store, ws string) ([]Command, []error) {
	c := ts.Loadable(ws, trust.KindCommands)
	if c == nil {
		return nil, nil
	}
	var out []Command
	var errs []error
	for _, rel := range c.Files {
		cmd, err := fromContent(rel, c.Data[rel])
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, cmd)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, errs
}

// fromContent is the command of the workspace file rel (slashes).
func fromContent(rel string, b []byte) (Command, error) {
	if path.Dir(rel) != ".gatehouse/commands" || path.Ext(rel) != ".md" {
		return Command{}, errors.New(rel + ": not a command (only .gatehouse/commands/*.md are read)")
	}
	name, err := nameOf(rel)
	if err != nil {
		return Command{}, err
	}
	return fromBytes(name, rel, b)
}

// PendingFile is one file of .gatehouse/commands/ as the trust prompt
// shows it: the command it defines, or why it is none.
type PendingFile struct {
	// Path is workspace-relative, with slashes.
	Path        string `json:"path"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
	// Prompt is the text the command sends (before $ARGUMENTS).
	Prompt string `json:"prompt,omitempty"`
	Error  string `json:"error,omitempty"`
}

// Pending is a workspace's commands waiting for the user's trust; Hash
// names exactly the content shown ("" when only refused files are listed:
// nothing to trust).
type Pending struct {
	Hash  string        `json:"hash"`
	Files []PendingFile `json:"files"`
}

// PendingTrust returns ws's .gatehouse/commands/ when it waits for trust
// (never trusted, or changed since), with each file's command; nil when
// there is nothing to ask.
func PendingTrust(ts *trust.Store, ws string) (*Pending, error) {
	c, err := ts.Waiting(ws, trust.KindCommands)
	if c == nil {
		return nil, err
	}
	p := &Pending{Hash: c.Hash, Files: []PendingFile{}}
	for _, rel := range c.Files {
		f := PendingFile{Path: rel}
		if cmd, err := fromContent(rel, c.Data[rel]); err != nil {
			f.Error = err.Error()
		} else {
			f.Name, f.Description, f.Prompt = cmd.Name, cmd.Description, cmd.Body
		}
		p.Files = append(p.Files, f)
	}
	for _, r := range c.Refused {
		p.Files = append(p.Files, PendingFile{Path: r.Path, Error: "refused: " + r.Reason})
	}
	sort.Slice(p.Files, func(i, j int) bool { return p.Files[i].Path < p.Files[j].Path })
	return p, nil
}

// ErrChanged: the commands changed after the prompt showed them.
var ErrChanged = errors.New("the workspace's commands changed since they were shown; look at them again")

// TrustWorkspace records the user's trust in ws's commands as shown
// (hash, from Pending).
func TrustWorkspace(ts *trust.Store, ws, hash string) error {
	err := ts.TrustShown(ws, trust.KindCommands, hash)
	if errors.Is(err, trust.ErrChanged) {
		return ErrChanged
	}
	return err
}

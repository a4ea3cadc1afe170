package gitview

import (
	"context"
	"errors"
	"strings"
)

// ErrUntrusted refuses a commit while the repository's git settings are
// not trusted: committing runs its hooks and its signing program.
var ErrUntrusted = errors.New("committing runs this repository's hooks and git settings: trust them first (Trust git settings)")

// CommitOptions is one commit the user asked for.
type CommitOptions struct {
	// Message is the whole message; empty with Amend keeps the last one.
	Message string `json:"message"`
	// Amend replaces the last commit instead of adding one.
	Amend bool `json:"amend"`
	// Trailer, when set ("Key: value"), is added as a trailer; nothing is
	// added otherwise.
	Trailer string `json:"trailer,omitempty"`
}

// Commit is the commit made.
type Commit struct {
	Hash    string `json:"hash"`
	Subject string `json:"subject"`
	// Output is what git and the hooks printed.
	Output string `json:"output,omitempty"`
}

// Commit commits the index with the user's git (their identity, signing
// and hooks). A failing hook's output is in the returned *Error.
func (r *Repo) Commit(ctx context.Context, o CommitOptions) (Commit, error) {
	if r.safe() {
		return Commit{}, ErrUntrusted
	}
	msg := strings.TrimSpace(o.Message)
	if msg == "" && !o.Amend {
		return Commit{}, errors.New("write a commit message first")
	}
	args := []string{"commit", "--quiet"}
	if o.Amend {
		args = append(args, "--amend")
	}
	var stdin []byte
	if msg == "" {
		args = append(args, "--no-edit")
	} else {
		args = append(args, "-F", "-")
		stdin = []byte(msg + "\n")
	}
	if t := strings.TrimSpace(o.Trailer); t != "" {
		args = append(args, "--trailer", t)
	}
	r.mu.Lock()
	out, err := r.run(ctx, stdin, args...)
	r.mu.Unlock()
	if err != nil {
		return Commit{}, err
	}
	head, err := r.run(ctx, nil, "log", "-1", "--no-show-signature", "--format=%h%x00%s")
	if err != nil {
		return Commit{}, err
	}
	hash, subject, _ := strings.Cut(strings.TrimSpace(string(head)), "\x00")
	return Commit{Hash: hash, Subject: subject, Output: string(out)}, nil
}

// LastMessage is the last commit's message ("" before the first commit),
// for amending.
func (r *Repo) LastMessage(ctx context.Context) (string, error) {
	if !r.hasHead(ctx) {
		return "", nil
	}
	out, err := r.run(ctx, nil, "log", "-1", "--no-show-signature", "--format=%B")
	return strings.TrimSpace(string(out)), err
}

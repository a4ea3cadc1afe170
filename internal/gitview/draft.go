package gitview

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"gatehouse/internal/llm"
)

//go:embed draft.md
var draftPrompt string

// DraftRequest is the text the user message of a draft request starts
// with (the staged diff follows it).
const DraftRequest = "Write the commit message for this staged diff."

// maxDraftDiff caps the diff sent to the model (its head is kept).
const maxDraftDiff = 60_000

// Model streams one model request; *llm.Live and *llm.Client are one.
type Model interface {
	Stream(ctx context.Context, req llm.Request, onText func(string)) (llm.Response, error)
}

// attribution matches trailer lines that credit a tool or a model.
var attribution = regexp.MustCompile(`(?im)^\s*(co-authored-by:.*|generated (with|by) .*|🤖.*)$`)

// Draft asks the model for a commit message for the staged changes. The
// message is only returned, for the user to edit: nothing is committed.
// A file the user's policy denies the model reading (denied, nil: none;
// see Visible) is left out of the diff sent, and the model is told how
// many were.
func (r *Repo) Draft(ctx context.Context, m Model, denied func(abs string) string) (string, error) {
	diff, err := r.StagedDiff(ctx)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(diff) == "" {
		return "", errors.New("nothing is staged: stage the changes to commit first")
	}
	if shown, hidden := r.Visible(parseDiff(diff), denied); len(hidden) > 0 {
		if len(shown) == 0 {
			return "", fmt.Errorf("the staged changes are all in files your policy hides from the model (%s): nothing is sent to draft from", strings.Join(hidden, ", "))
		}
		diff = ""
		for _, f := range shown {
			diff += f.Diff
		}
		diff += fmt.Sprintf("\n[%d staged file(s) hidden by the user's policy are left out]\n", len(hidden))
	}
	if len(diff) > maxDraftDiff {
		diff = diff[:maxDraftDiff] + "\n[the rest of the diff is left out]\n"
	}
	resp, err := m.Stream(ctx, llm.Request{
		Messages:  []llm.Message{llm.System(draftPrompt), llm.User(DraftRequest + "\n\n" + diff)},
		MaxTokens: 1024,
	}, nil)
	if err != nil {
		return "", err
	}
	return cleanDraft(resp.Message.Text), nil
}

// Visible splits a diff's files into those the model may be sent and the
// paths denied says the user's policy hides from it (denied gets the
// file's absolute path, a deleted file's as it was; nil: none hidden).
// The app reads diffs itself, unconfined: what it sends a model (a
// review, a draft) obeys the read deny the file tools and commands obey.
func (r *Repo) Visible(files []FileDiff, denied func(abs string) string) (shown []FileDiff, hidden []string) {
	return VisibleIn(filepath.Join(r.Dir, filepath.FromSlash(r.Prefix)), files, denied)
}

// VisibleIn is Visible for files whose paths are relative to folder base
// (a diff git does not hold: a turn's, from its undo plan).
func VisibleIn(base string, files []FileDiff, denied func(abs string) string) (shown []FileDiff, hidden []string) {
	if denied == nil {
		return files, nil
	}
	if b, err := filepath.EvalSymlinks(base); err == nil {
		base = b
	}
	for _, f := range files {
		if denied(filepath.Join(base, filepath.FromSlash(f.Path))) != "" {
			hidden = append(hidden, f.Path)
			continue
		}
		shown = append(shown, f)
	}
	return shown, hidden
}

// cleanDraft takes off what a model adds around a message: code fences,
// quotes, attribution lines.
func cleanDraft(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "```") {
		s = strings.TrimPrefix(s, "```")
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[i+1:]
		}
		s = strings.TrimSuffix(strings.TrimSpace(s), "```")
	}
	s = attribution.ReplaceAllString(s, "")
	return strings.TrimSpace(s)
}

package gitview

import (
	"context"
	_ "embed"
	"errors"
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
func (r *Repo) Draft(ctx context.Context, m Model) (string, error) {
	diff, err := r.StagedDiff(ctx)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(diff) == "" {
		return "", errors.New("nothing is staged: stage the changes to commit first")
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

package review

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"

	"gatehouse/internal/agents"
	"gatehouse/internal/gitview"
	"gatehouse/internal/protocol"
	"gatehouse/internal/workspace"
)

// MaxDiffBytes bounds the diff the reviewer is sent in its task; the files
// past it are named, for it to read.
const MaxDiffBytes = 192 << 10

// Options is one review.
type Options struct {
	// Agents runs the reviewer as a child of its session: the session's
	// gate, rules, mode and budget hold for every call it makes.
	Agents *agents.Manager
	// Repo is the workspace's repository; the diff is read through it (in
	// git's safe mode while its settings are untrusted).
	Repo   *gitview.Repo
	Target gitview.Target
	// Diff is the target's diff when git does not hold it (a turn's, see
	// TurnDiff); Repo may then be nil.
	Diff *Diff
	// ParentCallID labels the reviewer's events ("": a new "review-…" id,
	// for a review the user started rather than a call of the model).
	ParentCallID string
}

// Report is what a review found.
type Report struct {
	// ID labels the reviewer's events and child record (its ParentCallID).
	ID     string         `json:"id"`
	Target gitview.Target `json:"target"`
	// Files is the diff reviewed.
	Files    []gitview.FileDiff `json:"files"`
	Findings []Finding          `json:"findings"`
	// Summary is the reviewer's closing answer; Status its stop reason.
	Summary string `json:"summary,omitempty"`
	Status  string `json:"status"`
}

// ErrIncomplete wraps a review whose reviewer did not complete: its
// findings so far are in the report beside the error.
type ErrIncomplete struct {
	Status, Detail string
}

func (e *ErrIncomplete) Error() string {
	if e.Detail != "" {
		return fmt.Sprintf("the reviewer stopped (%s): %s", e.Status, e.Detail)
	}
	return fmt.Sprintf("the reviewer stopped (%s) before it finished", e.Status)
}

// Run reads the target's diff and, when it is not empty, has the reviewer
// review it; the findings come only from its report_findings calls,
// anchored to the diff's hunks.
func Run(ctx context.Context, o Options) (Report, error) {
	rep := Report{ID: o.ParentCallID, Target: o.Target, Findings: []Finding{}}
	if rep.ID == "" {
		rep.ID = newID()
	}
	if o.Agents == nil || o.Repo == nil && o.Diff == nil {
		return rep, fmt.Errorf("review: no session or repository")
	}
	var files []gitview.FileDiff
	var raw string
	if o.Diff != nil {
		files, raw = o.Diff.Files, o.Diff.Raw
	} else {
		var err error
		if files, raw, err = o.Repo.TargetDiff(ctx, o.Target); err != nil {
			return rep, err
		}
	}
	rep.Files = files
	if len(files) == 0 {
		rep.Status = string(protocol.StopCompleted)
		rep.Summary = "There are no changes in " + o.Target.String() + "."
		return rep, nil
	}
	var shown []gitview.FileDiff
	var hidden []string
	if ws := o.Agents.Workspace(); o.Repo != nil && o.Diff == nil {
		shown, hidden = o.Repo.Visible(files, readDenied(ws))
	} else if ws != nil {
		shown, hidden = gitview.VisibleIn(ws.Root(), files, readDenied(ws)) // a turn's paths are the workspace's
	} else {
		shown = files
	}
	if len(hidden) > 0 {
		raw = ""
		for _, f := range shown {
			raw += f.Diff
		}
	}
	if len(shown) == 0 {
		rep.Status = string(protocol.StopCompleted)
		rep.Summary = fmt.Sprintf("Nothing to review: the changes in %s are all in files hidden by your policy (%s).", o.Target.String(), strings.Join(hidden, ", "))
		return rep, nil
	}
	col := &Collector{}
	info, err := o.Agents.DelegateWith(ctx, agents.ReviewerAgent, Task(o.Target, raw, shown)+hiddenNote(len(hidden)), rep.ID, col)
	if err != nil {
		return rep, err
	}
	rep.Findings = Anchor(col.Findings(), files)
	if rep.Findings == nil {
		rep.Findings = []Finding{}
	}
	rep.Summary, rep.Status = strings.TrimSpace(info.Answer), info.Status
	if info.Status != string(protocol.StopCompleted) {
		detail := info.Error
		if info.Blocked != nil && detail == "" {
			detail = "a call was not approved"
		}
		return rep, &ErrIncomplete{Status: info.Status, Detail: detail}
	}
	return rep, nil
}

// Task is the reviewer's task: what it reviews and the diff (cut at
// MaxDiffBytes, whole files at a time; the rest are named).
func Task(t gitview.Target, raw string, files []gitview.FileDiff) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Review %s. Paths are relative to the workspace; line numbers in findings are the new side's.\n\n", t.String())
	if len(raw) <= MaxDiffBytes {
		b.WriteString("```diff\n" + raw)
		if !strings.HasSuffix(raw, "\n") {
			b.WriteString("\n")
		}
		b.WriteString("```\n")
		return b.String()
	}
	b.WriteString("```diff\n")
	used := 0
	var rest []string
	for _, f := range files {
		if used+len(f.Diff) > MaxDiffBytes || len(rest) > 0 {
			rest = append(rest, f.Path)
			continue
		}
		used += len(f.Diff)
		b.WriteString(f.Diff)
	}
	b.WriteString("```\n\nThe diff is too long to send whole; these files changed too, read them yourself: " + strings.Join(rest, ", ") + "\n")
	return b.String()
}

// readDenied is the read deny of ws's policy (nil: no workspace): the
// diff the reviewer is sent leaves out what the file tools may not read.
func readDenied(ws *workspace.Workspace) func(abs string) string {
	if ws == nil {
		return nil
	}
	return func(abs string) string { return ws.Denied(abs, workspace.Read) }
}

// hiddenNote tells the reviewer that n changed files were left out (their
// number only: never a name's hint of their content).
func hiddenNote(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("\n%d changed file(s) are hidden by the user's policy and left out of this diff; do not try to read them.\n", n)
}

func newID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "review-" + hex.EncodeToString(b[:])
}

package review

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gatehouse/internal/agents"
	"gatehouse/internal/approval"
	"gatehouse/internal/gitview"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
)

// lines is n numbered lines "prefix 1" … "prefix n".
func lines(prefix string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s %d\n", prefix, i)
	}
	return b.String()
}

// twoHunks changes a.go in two places far apart (two hunks) and b.txt in
// one, uncommitted.
func twoHunks(t *testing.T) string {
	dir := gitRepo(t, map[string]string{"a.go": lines("a", 40), "b.txt": lines("b", 5)})
	a := strings.Replace(lines("a", 40), "a 3\n", "a 3 changed\n", 1)
	a = strings.Replace(a, "a 30\n", "a 30 changed\nextra line\n", 1)
	write(t, dir, "a.go", a)
	write(t, dir, "b.txt", strings.Replace(lines("b", 5), "b 2\n", "b 2 changed\n", 1))
	return dir
}

// TestReviewerGetsTheDiffAndReportsFindingsThroughTheTool: the reviewer
// child is sent the diff, offered only reading tools and report_findings,
// runs unasked in safe mode, and its findings come from the tool call
// alone (the prose answer names another "finding" that is not taken),
// each anchored to the hunk holding its lines.
func TestReviewerGetsTheDiffAndReportsFindingsThroughTheTool(t *testing.T) {
	dir := twoHunks(t)
	script := llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{reportCall("c1",
			finding("high", "a.go", 30, 31, "off by one"),
			finding("low", "b/b.txt", 2, 2, "typo"),
		)}},
		{Text: llmtest.Text("Also critical: a.go:3 leaks memory. Two findings reported.")},
	}}
	s := openSession(t, dir, script, approval.Safe, false)
	rep, err := Run(context.Background(), Options{Agents: s.m, Repo: s.repo, Target: gitview.Target{Kind: gitview.TargetUncommitted}})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := s.srv.ChatRequest(0)
	if !strings.Contains(string(body), `+a 30 changed\n+extra line`) || !strings.Contains(string(body), `+b 2 changed`) {
		t.Fatalf("the reviewer was not sent the diff: %.600s", body)
	}
	tools, _ := s.srv.ToolNames(0)
	if !slices.Contains(tools, agents.FindingsTool) || !slices.Contains(tools, "read_file") || slices.Contains(tools, "write_file") || slices.Contains(tools, "bash") {
		t.Fatalf("the reviewer's tools: %v", tools)
	}
	if len(rep.Findings) != 2 {
		t.Fatalf("findings %+v", rep.Findings)
	}
	a, b := rep.Findings[0], rep.Findings[1]
	if len(rep.Files) != 2 || rep.Files[0].Path != "a.go" || len(rep.Files[0].Hunks) != 2 {
		t.Fatalf("diff files %+v", rep.Files)
	}
	if a.HunkID != rep.Files[0].Hunks[1].ID || a.Severity != High || a.ID != "f1" {
		t.Fatalf("the a.go finding is anchored to %q (%s), want the second hunk %q", a.HunkID, a.HunkHeader, rep.Files[0].Hunks[1].ID)
	}
	if !slices.Equal(a.Lines, []string{"a 30 changed", "extra line"}) || a.LinesFrom != 30 {
		t.Fatalf("the a.go finding's lines %q from %d", a.Lines, a.LinesFrom)
	}
	if b.File != "b.txt" || b.HunkID != rep.Files[1].Hunks[0].ID {
		t.Fatalf("the b.txt finding %+v", b)
	}
	if rep.Status != string(protocol.StopCompleted) || !strings.Contains(rep.Summary, "Two findings") {
		t.Fatalf("status %q summary %q", rep.Status, rep.Summary)
	}
	if Worst(rep.Findings) != High {
		t.Fatalf("worst %q", Worst(rep.Findings))
	}
	for _, e := range s.events {
		if _, ok := e.Payload.(protocol.ApprovalRequestedPayload); ok {
			t.Fatal("the read-only reviewer asked for approval in safe mode")
		}
	}
}

// TestFindingsAreOutdatedOnceTheirLinesChange: an edit of a finding's
// lines marks it outdated; an edit above another's lines moves it along.
func TestFindingsAreOutdatedOnceTheirLinesChange(t *testing.T) {
	dir := twoHunks(t)
	r, err := gitview.Open(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	files, _, err := r.TargetDiff(context.Background(), gitview.Target{Kind: gitview.TargetUncommitted})
	if err != nil {
		t.Fatal(err)
	}
	fs := Anchor([]Finding{
		{ID: "f1", Severity: High, File: "a.go", StartLine: 30, EndLine: 30, Title: "x", Explanation: "y"},
		{ID: "f2", Severity: Low, File: "b.txt", StartLine: 2, EndLine: 2, Title: "x", Explanation: "y"},
		{ID: "f3", Severity: Low, File: "a.go", StartLine: 20, EndLine: 20, Title: "outside", Explanation: "y"},
	}, files)
	if fs[2].HunkID != "" {
		t.Fatalf("a finding outside every hunk is anchored to %s", fs[2].HunkHeader)
	}
	read := func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, p)) }
	if got := Refresh(fs, read); got[0].Outdated || got[1].Outdated {
		t.Fatalf("outdated before any edit: %+v", got)
	}
	a, _ := os.ReadFile(filepath.Join(dir, "a.go"))
	write(t, dir, "a.go", strings.Replace(string(a), "a 30 changed\n", "a 30 fixed\n", 1))
	write(t, dir, "b.txt", "new first line\n"+lines("b", 5))
	write(t, dir, "b.txt", strings.Replace("new first line\n"+lines("b", 5), "b 2\n", "b 2 changed\n", 1))
	got := Refresh(fs, read)
	if !got[0].Outdated {
		t.Fatal("the a.go finding whose line was edited is not outdated")
	}
	if got[1].Outdated || got[1].StartLine != 3 {
		t.Fatalf("the b.txt finding whose line moved down one: %+v", got[1])
	}
	os.Remove(filepath.Join(dir, "b.txt"))
	if got := Refresh(fs, read); !got[1].Outdated {
		t.Fatal("a finding of a deleted file is not outdated")
	}
}

// TestBadFindingsAreRefusedWithTheirReason: a finding without a valid
// severity or line range is not kept; the model reads why and which.
func TestBadFindingsAreRefusedWithTheirReason(t *testing.T) {
	c := &Collector{}
	res, err := c.Tools()[0].Run(context.Background(), []byte(`{"findings":[
		{"severity":"urgent","file":"a.go","startLine":1,"endLine":1,"title":"t","explanation":"e"},
		{"severity":"high","file":"a.go","startLine":5,"endLine":2,"title":"t","explanation":"e"},
		{"severity":"medium","file":"a.go","startLine":3,"endLine":4,"title":"kept","explanation":"e"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	out := string(res.Output)
	if !res.IsError || !strings.Contains(out, "findings[0]: unknown severity") || !strings.Contains(out, "findings[1]: endLine 2 is before startLine 5") {
		t.Fatalf("result %s", out)
	}
	if got := c.Findings(); len(got) != 1 || got[0].Title != "kept" {
		t.Fatalf("kept %+v", got)
	}
}

// TestReviewTargets: staged, a commit and a branch against its base each
// give their own diff; a ref that is not a commit says so.
func TestReviewTargets(t *testing.T) {
	dir := gitRepo(t, map[string]string{"a.txt": "one\n"})
	git(t, dir, "checkout", "-q", "-b", "topic")
	write(t, dir, "a.txt", "one\ntwo\n")
	git(t, dir, "commit", "-q", "-am", "two")
	write(t, dir, "a.txt", "one\ntwo\nthree\n")
	git(t, dir, "add", "a.txt")
	write(t, dir, "a.txt", "one\ntwo\nthree\nfour\n")
	r, err := gitview.Open(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	diff := func(tg gitview.Target) string {
		t.Helper()
		_, raw, err := r.TargetDiff(context.Background(), tg)
		if err != nil {
			t.Fatal(err)
		}
		return raw
	}
	if d := diff(gitview.Target{Kind: gitview.TargetStaged}); !strings.Contains(d, "+three") || strings.Contains(d, "+four") {
		t.Fatalf("staged: %s", d)
	}
	if d := diff(gitview.Target{Kind: gitview.TargetUncommitted}); !strings.Contains(d, "+three") || !strings.Contains(d, "+four") || strings.Contains(d, "+two") {
		t.Fatalf("uncommitted: %s", d)
	}
	if d := diff(gitview.Target{Kind: gitview.TargetBase, Ref: "main"}); !strings.Contains(d, "+two") || strings.Contains(d, "+three") {
		t.Fatalf("base main: %s", d)
	}
	if d := diff(gitview.Target{Kind: gitview.TargetCommit, Ref: "HEAD~1"}); !strings.Contains(d, "+one") || strings.Contains(d, "+two") {
		t.Fatalf("the root commit: %s", d)
	}
	if _, _, err := r.TargetDiff(context.Background(), gitview.Target{Kind: gitview.TargetCommit, Ref: "nope"}); err == nil || !strings.Contains(err.Error(), "not a commit") {
		t.Fatalf("a ref that is none: %v", err)
	}
	if _, _, err := r.TargetDiff(context.Background(), gitview.Target{Kind: gitview.TargetBase, Ref: "--output=/tmp/x"}); err == nil {
		t.Fatal("an option given as the ref was run")
	}
}

// TestUntrustedRepositoryDiffRunsNoExternalDiff: the diff of an untrusted
// repository comes from git's safe mode: its external diff program never
// runs.
func TestUntrustedRepositoryDiffRunsNoExternalDiff(t *testing.T) {
	dir := gitRepo(t, map[string]string{"a.txt": "one\n"})
	mark := filepath.Join(t.TempDir(), "ran")
	write(t, dir, "evil.sh", "#!/bin/sh\ntouch "+mark+"\n")
	os.Chmod(filepath.Join(dir, "evil.sh"), 0o755)
	git(t, dir, "config", "diff.external", filepath.Join(dir, "evil.sh"))
	write(t, dir, "a.txt", "one\ntwo\n")
	script := llmtest.Script{Responses: []llmtest.Response{{Text: llmtest.Text("Nothing to report.")}}}
	s := openSession(t, dir, script, approval.Safe, false)
	rep, err := Run(context.Background(), Options{Agents: s.m, Repo: s.repo, Target: gitview.Target{Kind: gitview.TargetUncommitted}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(mark); err == nil {
		t.Fatal("the repository's external diff ran")
	}
	// a.txt's change, and the untracked script as an added file.
	if len(rep.Findings) != 0 || len(rep.Files) != 2 || rep.Files[1].Path != "evil.sh" || rep.Files[1].Status != "A" {
		t.Fatalf("report %+v", rep)
	}
}

// TestReviewWithNothingToReviewAsksNoModel: an empty diff is reported as
// such without a model request.
func TestReviewWithNothingToReviewAsksNoModel(t *testing.T) {
	dir := gitRepo(t, map[string]string{"a.txt": "one\n"})
	s := openSession(t, dir, llmtest.Script{}, approval.Safe, true)
	rep, err := Run(context.Background(), Options{Agents: s.m, Repo: s.repo, Target: gitview.Target{Kind: gitview.TargetUncommitted}})
	if err != nil || len(rep.Findings) != 0 || !strings.Contains(rep.Summary, "no changes") {
		t.Fatalf("%+v %v", rep, err)
	}
	if n := len(s.srv.ModelRequests()); n != 0 {
		t.Fatalf("%d model requests for an empty diff", n)
	}
}

// TestAReviewerThatFailsIsAnError: a reviewer whose model fails ends the
// review with ErrIncomplete, not with "no findings".
func TestAReviewerThatFailsIsAnError(t *testing.T) {
	dir := twoHunks(t)
	script := llmtest.Script{Responses: []llmtest.Response{{Error: &llmtest.APIError{Status: 400, Code: "bad_request", Message: "no"}}}}
	s := openSession(t, dir, script, approval.Safe, true)
	_, err := Run(context.Background(), Options{Agents: s.m, Repo: s.repo, Target: gitview.Target{Kind: gitview.TargetUncommitted}})
	var inc *ErrIncomplete
	if !errors.As(err, &inc) || inc.Status != string(protocol.StopError) {
		t.Fatalf("err %v", err)
	}
}

package gitview

import (
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/trust"
)

// The model drafts a message from the staged diff, with its own prompt;
// the draft comes back for editing, fences and attribution taken off, and
// nothing is committed.
func TestDraftAsksTheModelWithTheStagedDiff(t *testing.T) {
	g := newRepo(t, map[string]string{"a.txt": lines20(nil)})
	g.write("a.txt", lines20(map[int]string{2: "TWO", 18: "EIGHTEEN"}))
	g.r.StageHunk(ctx, "a.txt", file(t, g.changes().Unstaged, "a.txt").Hunks[0].ID)
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: llmtest.Fragments{Parts: []string{"```\nChange line two\n\n", "It reads better.\n\nCo-authored-by: A Model <m@example.com>\n```"}}},
	}})
	client, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "fake"})
	if err != nil {
		t.Fatal(err)
	}
	msg, err := g.r.Draft(ctx, client, nil)
	if err != nil {
		t.Fatal(err)
	}
	if msg != "Change line two\n\nIt reads better." {
		t.Fatalf("draft = %q", msg)
	}
	reqs := srv.ModelRequests()
	if len(reqs) != 1 {
		t.Fatalf("%d model requests", len(reqs))
	}
	body := string(reqs[0].Body)
	for _, want := range []string{"commit message only", "+TWO", "Write the commit message for this staged diff"} {
		if !strings.Contains(body, want) {
			t.Errorf("the request lacks %q", want)
		}
	}
	if strings.Contains(body, "EIGHTEEN") || strings.Contains(body, `"tools"`) {
		t.Errorf("the request holds the staged diff only, and no tools:\n%s", body)
	}
	if n := strings.Count(g.git("log", "--oneline"), "\n"); n != 1 {
		t.Fatal("a draft must never commit")
	}
}

func TestDraftRefusesAnEmptyIndex(t *testing.T) {
	g := newRepo(t, map[string]string{"a.txt": "a\n"})
	if _, err := g.r.Draft(ctx, nil, nil); err == nil || !strings.Contains(err.Error(), "nothing is staged") {
		t.Fatalf("err = %v", err)
	}
}

// Trust covers the exact .git/config and hooks: a change takes it back.
func TestTrustCoversTheCurrentGitSettings(t *testing.T) {
	g := newRepo(t, map[string]string{"a.txt": "a\n"})
	ts := trust.NewStore(t.TempDir())
	trusted := TrustedBy(ts, g.dir)
	s, err := ReadSettings(ts, g.dir)
	if err != nil || s.Trusted || trusted() || len(s.Files) == 0 || s.Files[0] != ".git/config" {
		t.Fatalf("before trust: %+v %v", s, err)
	}
	if err := TrustSettings(ts, g.dir, "stale"); err == nil {
		t.Fatal("trusting settings other than the ones shown should be refused")
	}
	if err := TrustSettings(ts, g.dir, s.Hash); err != nil {
		t.Fatal(err)
	}
	if !trusted() {
		t.Fatal("trusted settings not trusted")
	}
	g.git("config", "core.fsmonitor", "true")
	if trusted() {
		t.Fatal("a changed .git/config must be trusted again")
	}
}

// A staged file the user's policy hides from the model (a tracked .env) is
// left out of the diff a draft sends, old and new secret alike, and the
// model is told how many were; with only such files staged nothing is sent.
func TestDraftLeavesOutWhatThePolicyHides(t *testing.T) {
	g := newRepo(t, map[string]string{"a.txt": "a\n", ".env": "TOKEN=OLD-draft-secret\n"})
	g.write(".env", "TOKEN=NEW-draft-secret\n")
	g.git("add", ".env")
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: llmtest.Text("Change a")}}})
	client, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "fake"})
	if err != nil {
		t.Fatal(err)
	}
	env := filepath.Join(g.r.Dir, ".env")
	denied := func(abs string) string {
		if abs == env {
			return "secrets stay out"
		}
		return ""
	}
	if _, err := g.r.Draft(ctx, client, denied); err == nil || !strings.Contains(err.Error(), "hides from the model") {
		t.Fatalf("only .env staged: %v", err)
	}
	g.write("a.txt", "A\n")
	g.git("add", "a.txt")
	if _, err := g.r.Draft(ctx, client, denied); err != nil {
		t.Fatal(err)
	}
	reqs := srv.ModelRequests()
	if len(reqs) != 1 {
		t.Fatalf("%d model requests, want 1", len(reqs))
	}
	body := string(reqs[0].Body)
	if strings.Contains(body, "draft-secret") || !strings.Contains(body, "+A") || !strings.Contains(body, "1 staged file(s) hidden by the user's policy") {
		t.Fatalf("the draft request:\n%s", body)
	}
}

package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/gitcmd"
	"gatehouse/internal/llm/llmtest"
)

// TestReviewKeepsAPolicyDeniedFilesDiffFromTheReviewer: `gatehouse review`
// of uncommitted changes that include a tracked .env's change (a secret
// committed, another written since) and an untracked keys/deploy.pem under
// a standing deny on reading .env and keys/**:
// the diff the reviewer's model is sent leaves .env out, old and new
// secret alike, and keys/deploy.pem, and says the files were hidden by the user's policy; the
// other file's change is still reviewed.
func TestReviewKeepsAPolicyDeniedFilesDiffFromTheReviewer(t *testing.T) {
	const oldSecret, newSecret = "OLD-sk-live-1111", "NEW-sk-live-2222"
	dir := reviewRepo(t)
	git := func(args ...string) {
		if _, err := gitcmd.Run(context.Background(), "", dir, nil, nil, args...); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, ".env"), []byte("TOKEN="+oldSecret+"\n"), 0o600)
	git("add", ".env")
	git("commit", "-q", "-m", "env")
	os.WriteFile(filepath.Join(dir, ".env"), []byte("TOKEN="+newSecret+"\n"), 0o600)
	// An untracked secret, not ignored: the review sends untracked files whole.
	os.MkdirAll(filepath.Join(dir, "keys"), 0o755)
	os.WriteFile(filepath.Join(dir, "keys", "deploy.pem"), []byte(pemSecret+"\n"), 0o600)

	env := testEnv(t, nil)
	os.MkdirAll(env.ConfigDir, 0o700)
	os.WriteFile(filepath.Join(env.ConfigDir, "policy.toml"), []byte(denyPolicy), 0o600)
	srv := llmtest.Start(t, reviewScript("low"))
	var out, errb bytes.Buffer
	code := Review(context.Background(), []string{"--workspace", dir, "--json", "--base-url", srv.URL, "--model", "fake-model"},
		env, strings.NewReader(""), &out, &errb)
	if code != ExitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, errb.String())
	}
	reqs := srv.ModelRequests()
	if len(reqs) == 0 {
		t.Fatal("the reviewer was asked nothing")
	}
	first := string(reqs[0].Body)
	for _, q := range reqs {
		for _, s := range []string{oldSecret, newSecret, pemSecret} {
			if strings.Contains(string(q.Body), s) {
				t.Fatalf("the reviewer's model was sent %q:\n%s", s, q.Body)
			}
		}
	}
	if !strings.Contains(first, "+2") || !strings.Contains(first, "hidden by the user's policy") {
		t.Fatalf("the task does not carry a.txt's change and the hidden file's note:\n%s", first)
	}
}

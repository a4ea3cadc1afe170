package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/gitcmd/gittest"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/policy"
)

// TestWorktreeSessionFileToolsKeepTheMainCheckoutsDeny: a deny the user
// saved for the repository (this workspace: the main checkout) holds in a
// worktree session of it through the file tools: read_file of the
// worktree's copy of keys/deploy.pem, of the main checkout's .env by its
// absolute path and through a symlink in the worktree, grep, glob and
// list_dir. No secret reaches the model; the results say the user's policy
// hid them.
func TestWorktreeSessionFileToolsKeepTheMainCheckoutsDeny(t *testing.T) {
	gittest.Home(t)
	parent, _ := filepath.EvalSymlinks(t.TempDir())
	repo, wt := filepath.Join(parent, "proj"), filepath.Join(parent, "proj.worktrees", "job")
	os.MkdirAll(filepath.Join(repo, "keys"), 0o755)
	os.WriteFile(filepath.Join(repo, "keys", "deploy.pem"), []byte(pemSecret+"\n"), 0o600)
	os.WriteFile(filepath.Join(repo, "a.txt"), []byte("TOKEN is read from the environment\n"), 0o644)
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git(repo, "init", "-q")
	git(repo, "add", "-A")
	git(repo, "commit", "-q", "-m", "first")
	git(repo, "worktree", "add", "-q", "-b", "gatehouse/job", wt)
	// Untracked in the main checkout, as secrets are; the worktree links to it.
	os.WriteFile(filepath.Join(repo, ".env"), []byte("API_TOKEN="+envSecret+"\n"), 0o600)
	if err := os.Symlink(filepath.Join(repo, ".env"), filepath.Join(wt, "main.env")); err != nil {
		t.Fatal(err)
	}

	for _, r := range []struct {
		name  string
		calls []llmtest.Response
		want  string
	}{
		{"worktree copy", []llmtest.Response{{ToolCalls: []llmtest.ToolCall{call("c1", "read_file", `{"path":"keys/deploy.pem"}`)}}}, "secrets stay out"},
		{"main by path", []llmtest.Response{{ToolCalls: []llmtest.ToolCall{call("c1", "read_file", `{"path":"`+filepath.Join(repo, ".env")+`"}`)}}}, "error"},
		{"main by ../", []llmtest.Response{{ToolCalls: []llmtest.ToolCall{call("c1", "read_file", `{"path":"../../proj/keys/deploy.pem"}`)}}}, "error"},
		{"main by link", []llmtest.Response{{ToolCalls: []llmtest.ToolCall{call("c1", "read_file", `{"path":"main.env"}`)}}}, "error"},
		{"grep", []llmtest.Response{{ToolCalls: []llmtest.ToolCall{call("c1", "grep", `{"pattern":"TOKEN|PEMSECRET"}`)}}}, "hidden by the user's policy"},
		{"glob", []llmtest.Response{{ToolCalls: []llmtest.ToolCall{call("c1", "glob", `{"pattern":"**/*"}`)}}}, "hidden by the user's policy"},
		{"list_dir", []llmtest.Response{{ToolCalls: []llmtest.ToolCall{call("c1", "list_dir", `{"path":".","depth":3}`)}}}, "hidden by the user's policy"},
		{"view_image", []llmtest.Response{{ToolCalls: []llmtest.ToolCall{call("c1", "view_image", `{"path":"keys/deploy.pem"}`)}}}, "secrets stay out"},
	} {
		t.Run(r.name, func(t *testing.T) {
			env := testEnv(t, nil)
			// The deny is saved for the repository (its main checkout), as
			// the Policy page's "this workspace" saves it; nothing everywhere.
			n, err := policy.Written{Decision: "deny", Paths: []string{".env", "keys/**"}, Access: "read", Reason: "secrets stay out"}.New()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := policy.Add(policy.Where{ConfigDir: env.ConfigDir, Workspace: repo}, policy.ScopeWorkspace, n); err != nil {
				t.Fatal(err)
			}
			srv := llmtest.Start(t, llmtest.Script{Responses: append(r.calls, llmtest.Response{Text: llmtest.Text("done")})})
			res := runExec(t, context.Background(), env, "--workspace", wt, "--prompt", "read the secrets",
				"--approval", "auto", "--base-url", srv.URL, "--model", "fake-model", "--json")
			if res.code != ExitCompleted {
				t.Fatalf("exit %d; stderr:\n%s\n%s", res.code, res.stderr, res.stdout)
			}
			noSecretSent(t, srv, res.stdout)
			if !strings.Contains(res.stdout, r.want) {
				t.Errorf("the events do not say %q:\n%s", r.want, res.stdout)
			}
		})
	}
}

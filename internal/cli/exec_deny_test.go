package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/policy"
	"gatehouse/internal/protocol"
)

// The secrets of the workspace the read-deny tests use: the content of
// .env and of keys/deploy.pem must never reach the model.
const (
	envSecret = "s3cr3t-TOKEN-42"
	pemSecret = "PEMSECRET-99"
)

// denyPolicy is the rule as a user writes it (files on
// read_file), with the reading tools and the explore child allowed as
// whole tools, so manual mode runs them too: what keeps the secrets out
// is the deny, never an unanswered question.
const denyPolicy = `
[[rule]]
decision = "deny"
tool = "read_file"
files = [".env", "keys/**"]
reason = "secrets stay out"

[[rule]]
decision = "allow"
tool = "read_file"

[[rule]]
decision = "allow"
tool = "grep"

[[rule]]
decision = "allow"
tool = "glob"

[[rule]]
decision = "allow"
tool = "list_dir"

[[rule]]
decision = "allow"
tool = "view_image"

[[rule]]
decision = "allow"
tool = "delegate_explore"
`

func secretWorkspace(t *testing.T) string {
	t.Helper()
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, ".env"), []byte("API_TOKEN="+envSecret+"\n"), 0o600)
	os.MkdirAll(filepath.Join(ws, "keys"), 0o755)
	os.WriteFile(filepath.Join(ws, "keys", "deploy.pem"), []byte(pemSecret+"\n"), 0o600)
	os.MkdirAll(filepath.Join(ws, "src"), 0o755)
	os.WriteFile(filepath.Join(ws, "src", "a.txt"), []byte("TOKEN is read from the environment\n"), 0o644)
	if err := os.Symlink(".env", filepath.Join(ws, "link")); err != nil {
		t.Fatal(err)
	}
	return ws
}

func call(id, name, args string) llmtest.ToolCall {
	return llmtest.ToolCall{ID: id, Name: name, Arguments: llmtest.Text(args)}
}

// TestReadDenyHoldsOnEveryRoute: a deny written on read_file for .env and
// keys/** keeps their content from the model on every file route (the
// path, ./keys/../.env, a symlink, grep, glob then read_file, list_dir,
// view_image, a delegate_explore child's read_file), in manual, safe and
// auto; the result says the user's policy hid it, with the rule. A write
// that starts from the file's content (apply_patch's update, move or
// delete, write_file over it or appending to it) is a read of it too.
func TestReadDenyHoldsOnEveryRoute(t *testing.T) {
	routes := []struct {
		name  string
		resps []llmtest.Response
		want  string // in the events printed: the refusal or the hidden count
	}{
		{"read_file", []llmtest.Response{{ToolCalls: []llmtest.ToolCall{call("c1", "read_file", `{"path":".env"}`)}}}, "secrets stay out"},
		{"dotdot", []llmtest.Response{{ToolCalls: []llmtest.ToolCall{call("c1", "read_file", `{"path":"./keys/../.env"}`)}}}, "secrets stay out"},
		{"symlink", []llmtest.Response{{ToolCalls: []llmtest.ToolCall{call("c1", "read_file", `{"path":"link"}`)}}}, "secrets stay out"},
		{"keys", []llmtest.Response{{ToolCalls: []llmtest.ToolCall{call("c1", "read_file", `{"path":"keys/deploy.pem"}`)}}}, "secrets stay out"},
		{"grep", []llmtest.Response{{ToolCalls: []llmtest.ToolCall{call("c1", "grep", `{"pattern":"TOKEN|PEMSECRET"}`)}}}, "hidden by the user's policy"},
		{"glob", []llmtest.Response{
			{ToolCalls: []llmtest.ToolCall{call("c1", "glob", `{"pattern":"**/*"}`)}},
			{ToolCalls: []llmtest.ToolCall{call("c2", "read_file", `{"path":".env"}`)}},
		}, "hidden by the user's policy"},
		{"list_dir", []llmtest.Response{{ToolCalls: []llmtest.ToolCall{call("c1", "list_dir", `{"path":".","depth":3}`)}}}, "hidden by the user's policy"},
		{"view_image", []llmtest.Response{{ToolCalls: []llmtest.ToolCall{call("c1", "view_image", `{"path":".env"}`)}}}, "secrets stay out"},
		// The write tools: a change that starts from a denied file's content
		// reads it (the diff the model is sent shows the old lines).
		{"patch update", []llmtest.Response{{ToolCalls: []llmtest.ToolCall{call("c1", "apply_patch", `{"patch":"*** Begin Patch\n*** Update File: .env\n@@\n+MORE=1\n*** End Patch"}`)}}}, "secrets stay out"},
		{"patch move", []llmtest.Response{
			{ToolCalls: []llmtest.ToolCall{call("c1", "apply_patch", `{"patch":"*** Begin Patch\n*** Update File: link\n*** Move to: moved.txt\n@@\n+MORE=1\n*** End Patch"}`)}},
			{ToolCalls: []llmtest.ToolCall{call("c2", "read_file", `{"path":"moved.txt"}`)}},
		}, "secrets stay out"},
		{"patch delete", []llmtest.Response{{ToolCalls: []llmtest.ToolCall{call("c1", "apply_patch", `{"patch":"*** Begin Patch\n*** Delete File: keys/deploy.pem\n*** End Patch"}`)}}}, "secrets stay out"},
		{"write over", []llmtest.Response{{ToolCalls: []llmtest.ToolCall{call("c1", "write_file", `{"path":".env","content":"x\n"}`)}}}, "secrets stay out"},
		{"append", []llmtest.Response{{ToolCalls: []llmtest.ToolCall{call("c1", "write_file", `{"path":"keys/deploy.pem","content":"x\n","mode":"append"}`)}}}, "secrets stay out"},
		{"child", []llmtest.Response{
			{ToolCalls: []llmtest.ToolCall{call("c1", "delegate_explore", `{"task":"read .env"}`)}},
			{ToolCalls: []llmtest.ToolCall{call("k1", "read_file", `{"path":".env"}`)}},
			{Text: llmtest.Text("the child could not read it")},
		}, "secrets stay out"},
	}
	for _, mode := range []string{"manual", "safe", "auto"} {
		for _, r := range routes {
			t.Run(mode+"/"+r.name, func(t *testing.T) {
				srv := llmtest.Start(t, llmtest.Script{Responses: append(r.resps, llmtest.Response{Text: llmtest.Text("done")})})
				env := testEnv(t, nil)
				os.MkdirAll(env.ConfigDir, 0o700)
				os.WriteFile(filepath.Join(env.ConfigDir, "policy.toml"), []byte(denyPolicy), 0o600)
				ws := secretWorkspace(t)
				res := runExec(t, context.Background(), env, "--workspace", ws, "--prompt", "read the secrets",
					"--approval", mode, "--base-url", srv.URL, "--model", "fake-model", "--json")
				if res.code != ExitCompleted {
					t.Fatalf("exit %d; stderr:\n%s\n%s", res.code, res.stderr, res.stdout)
				}
				noSecretSent(t, srv, res.stdout)
				if !strings.Contains(res.stdout, r.want) {
					t.Errorf("the events do not say %q:\n%s", r.want, res.stdout)
				}
				for _, e := range parseEvents(t, res.stdout) {
					if p, ok := e.Payload.(protocol.ToolFinishedPayload); ok && p.Tool == "grep" && !strings.Contains(string(p.Result), "src/a.txt") {
						t.Errorf("grep lost the files it may search: %s", p.Result)
					}
				}
			})
		}
	}
}

// noSecretSent fails t when a secret of secretWorkspace is in the events
// printed (stdout) or in what srv was sent.
func noSecretSent(t *testing.T, srv *llmtest.Server, stdout string) {
	t.Helper()
	seen := stdout
	for _, req := range srv.ModelRequests() {
		seen += string(req.Body)
	}
	for _, s := range []string{envSecret, pemSecret} {
		if strings.Contains(seen, s) {
			t.Fatalf("the secret %q reached the model:\n%s", s, stdout)
		}
	}
}

// TestReadDenialsAreAudited: every read the user's policy kept from the
// model is in the audit log as a denial by the policy: a read_file the
// gate refused with its rule, and grep, glob and list_dir that ran with
// entries left out, with how many.
func TestReadDenialsAreAudited(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("c1", "read_file", `{"path":".env"}`), call("c2", "grep", `{"pattern":"TOKEN|PEMSECRET"}`),
			call("c3", "glob", `{"pattern":"**/*"}`), call("c4", "list_dir", `{"path":".","depth":3}`), call("c5", "list_dir", `{"path":"src"}`)}},
		{Text: llmtest.Text("done")},
	}})
	env := testEnv(t, nil)
	os.MkdirAll(env.ConfigDir, 0o700)
	os.WriteFile(filepath.Join(env.ConfigDir, "policy.toml"), []byte(denyPolicy), 0o600)
	res := runExec(t, context.Background(), env, "--workspace", secretWorkspace(t), "--prompt", "read the secrets",
		"--approval", "auto", "--base-url", srv.URL, "--model", "fake-model", "--json")
	if res.code != ExitCompleted {
		t.Fatalf("exit %d; stderr:\n%s", res.code, res.stderr)
	}
	entries, err := policy.OpenAudit(env.DataDir).List(policy.Filter{}, 100)
	if err != nil {
		t.Fatal(err)
	}
	denied := map[string]approval.AuditEntry{}
	for _, e := range entries {
		if e.Decision == approval.VerdictDeny {
			if e.By != approval.ByPolicy {
				t.Errorf("%s denied by %s, not the policy", e.CallID, e.By)
			}
			denied[e.CallID] = e
		}
	}
	if e := denied["c1"]; len(e.Standing) != 1 || e.Standing[0].Reason != "secrets stay out" {
		t.Errorf("read_file .env: %+v", e)
	}
	for _, id := range []string{"c2", "c3", "c4"} {
		if e := denied[id]; e.Hidden == 0 || !strings.Contains(e.Summary, "hidden by the user's policy") {
			t.Errorf("%s hid entries but the audit log says %+v", id, e)
		}
	}
	if e, ok := denied["c5"]; ok {
		t.Errorf("list_dir src hid nothing, yet a denial is audited: %+v", e)
	}
}

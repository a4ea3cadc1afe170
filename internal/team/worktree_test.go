package team

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/gitcmd/gittest"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/proc"
	"gatehouse/internal/protocol"
	"gatehouse/internal/sandbox"
	"gatehouse/internal/session"
)

// gitRepo makes a repository with files committed on branch main, under
// a git configuration of the test's own (no user's settings), and returns
// its folder.
func gitRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	gittest.Home(t)
	parent, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(parent, "proj")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for p, c := range files {
		if err := os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, dir, "init", "-q")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "first")
	return dir
}

// git runs the test's own git with no program of the repository's
// settings (hooks, fsmonitor) able to run.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// result decodes a tool result's JSON.
func result(t *testing.T, raw string) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		t.Fatalf("result %q: %v", raw, err)
	}
	return v
}

// A teammate spawned with worktree works in a worktree of its own on
// branch gatehouse/team-<name>: its file tools write there, its commands
// run there (git sees its branch), a path in the lead's workspace is
// outside its boundary, and the lead's folder is untouched. Closing the
// session keeps the worktree and its branch, as a worktree session.
func TestTeammateInItsOwnWorktree(t *testing.T) {
	root := gitRepo(t, map[string]string{"README.md": "hello\n"})
	wt := filepath.Join(filepath.Dir(root), "proj.worktrees", "team-alice")
	lead := llmtest.Script{Responses: []llmtest.Response{
		call("s1", ToolSpawn, `{"name":"alice","agent":"alice","task":"write the notes","worktree":true}`),
		text("alice is on it"),
	}}
	h := start(t, lead, approval.Auto, setup{root: root, members: map[string]llmtest.Script{
		"alice": {Responses: []llmtest.Response{
			call("a1", "write_file", `{"path":"notes.md","content":"alice's notes\n"}`),
			call("a2", "bash", `{"action":"exec","command":"git rev-parse --abbrev-ref HEAD > branch.txt && pwd -P > where.txt"}`),
			call("a3", "write_file", js(map[string]string{"path": filepath.Join(root, "README.md"), "content": "overwritten\n"})),
			text("notes written"),
		}},
	}})
	if out := h.run("make a team"); out.Reason != protocol.StopCompleted {
		t.Fatalf("lead: %+v", out)
	}
	alice := h.waitState("alice", protocol.TeammateIdle)
	if alice.Worktree != wt || alice.WorktreeBranch != "gatehouse/team-alice" {
		t.Fatalf("alice's worktree %q on %q, want %q on gatehouse/team-alice", alice.Worktree, alice.WorktreeBranch, wt)
	}
	spawned := h.results(protocol.TeamLead, ToolSpawn)
	if len(spawned) != 1 || result(t, spawned[0])["worktree"] != wt || result(t, spawned[0])["branch"] != "gatehouse/team-alice" {
		t.Fatalf("team_spawn's result %v", spawned)
	}
	for f, want := range map[string]string{"notes.md": "alice's notes\n", "branch.txt": "gatehouse/team-alice\n", "where.txt": wt + "\n"} {
		if b, err := os.ReadFile(filepath.Join(wt, f)); err != nil || string(b) != want {
			t.Fatalf("%s in the worktree: %q, %v; want %q", f, b, err, want)
		}
		if _, err := os.Stat(filepath.Join(root, f)); err == nil {
			t.Fatalf("%s was written in the lead's workspace", f)
		}
	}
	writes := h.results("alice", "write_file")
	if len(writes) != 2 || !contains(writes[1], "outside") {
		t.Fatalf("alice's write to the lead's workspace was not refused as outside hers: %v", writes)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "README.md")); string(b) != "hello\n" {
		t.Fatalf("the lead's README: %q", b)
	}
	if st := h.team.State(); st.Teammates[0].Worktree != wt {
		t.Fatalf("the team's state (the window's Team panel) lacks the worktree: %+v", st.Teammates[0])
	}

	h.sess.Close()
	if st := h.waitState("alice", protocol.TeammateStopped); st.Worktree != wt {
		t.Fatalf("stopped alice: %+v", st)
	}
	if _, err := os.Stat(filepath.Join(wt, "notes.md")); err != nil {
		t.Fatalf("closing the session removed the worktree: %v", err)
	}
	if list := git(t, root, "worktree", "list", "--porcelain"); !strings.Contains(list, "branch refs/heads/gatehouse/team-alice") {
		t.Fatalf("the worktree session is not kept:\n%s", list)
	}
}

// Making a teammate's worktree in a repository whose git settings were
// never trusted runs none of the programs they name: the post-checkout
// hook and the fsmonitor of the repository's config leave no marker.
func TestTeammateWorktreeRunsNoProgramOfAnUntrustedRepo(t *testing.T) {
	root := gitRepo(t, map[string]string{"a.txt": "a\n", ".gitattributes": "*.txt filter=evil\n"})
	marks := t.TempDir()
	for _, h := range []string{"post-checkout", "reference-transaction", "post-index-change"} {
		if err := os.WriteFile(filepath.Join(root, ".git", "hooks", h), []byte("#!/bin/sh\ntouch "+filepath.Join(marks, h)+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	git(t, root, "config", "core.fsmonitor", "touch "+filepath.Join(marks, "fsmonitor")+"; false")
	git(t, root, "config", "filter.evil.smudge", "touch "+filepath.Join(marks, "smudge")+"; cat")
	git(t, root, "config", "alias.worktree", "!touch "+filepath.Join(marks, "alias"))
	lead := llmtest.Script{Responses: []llmtest.Response{
		call("s1", ToolSpawn, `{"name":"bob","agent":"bob","task":"look","worktree":true}`),
		text("bob is on it"),
	}}
	h := start(t, lead, approval.Auto, setup{root: root, members: map[string]llmtest.Script{
		"bob": {Responses: []llmtest.Response{text("looked")}},
	}})
	h.team.TrustGit(func(string) func() bool { return func() bool { return false } })
	h.run("go")
	bob := h.waitState("bob", protocol.TeammateIdle)
	if bob.Worktree == "" {
		t.Fatalf("bob has no worktree: %+v (spawn: %v)", bob, h.results(protocol.TeamLead, ToolSpawn))
	}
	if b, err := os.ReadFile(filepath.Join(bob.Worktree, "a.txt")); err != nil || string(b) != "a\n" {
		t.Fatalf("the worktree's checkout: %q, %v", b, err)
	}
	if left, _ := os.ReadDir(marks); len(left) > 0 {
		var names []string
		for _, e := range left {
			names = append(names, e.Name())
		}
		t.Fatalf("making the worktree ran the repository's programs: %v", names)
	}
}

// A teammate in its worktree has its own boundary and sandbox grant: its
// commands would be confined to its worktree, the lead's to the lead's
// workspace.
func TestTeammateWorktreeCommandsAreGrantedItsFolder(t *testing.T) {
	root := gitRepo(t, map[string]string{"a.txt": "a\n"})
	grant := func(ws string) func(string) *sandbox.Policy {
		return func(string) *sandbox.Policy { return &sandbox.Policy{Writable: []string{ws}} }
	}
	lead := llmtest.Script{Responses: []llmtest.Response{
		calls(tc("s1", ToolSpawn, `{"name":"carol","agent":"carol","task":"work","worktree":true}`),
			tc("s2", ToolSpawn, `{"name":"dan","agent":"dan","task":"work"}`)),
		text("both on it"),
	}}
	h := start(t, lead, approval.Auto, setup{root: root, procs: proc.Options{Supervisor: "supervisor", Sandbox: grant(root), SandboxFor: grant},
		members: map[string]llmtest.Script{"carol": {Responses: []llmtest.Response{text("ok")}}, "dan": {Responses: []llmtest.Response{text("ok")}}}})
	h.run("go")
	carol := h.waitState("carol", protocol.TeammateIdle)
	h.waitState("dan", protocol.TeammateIdle)
	h.team.mu.Lock()
	cs, ds := h.team.members["carol"].sess, h.team.members["dan"].sess
	h.team.mu.Unlock()
	if got := cs.Workspace().Root(); got != carol.Worktree {
		t.Fatalf("carol's boundary %s, want her worktree %s", got, carol.Worktree)
	}
	if p := cs.Processes().Policy(carol.Worktree); p == nil || len(p.Writable) != 1 || p.Writable[0] != carol.Worktree {
		t.Fatalf("carol's commands are granted %+v, want her worktree %s", p, carol.Worktree)
	}
	if p := ds.Processes().Policy(root); p == nil || len(p.Writable) != 1 || p.Writable[0] != root {
		t.Fatalf("dan (no worktree) is granted %+v, want the lead's workspace", p)
	}
	if p := h.sess.Processes().Policy(root); p == nil || p.Writable[0] != root {
		t.Fatalf("the lead is granted %+v", p)
	}
}

// A workspace outside a git repository cannot give a teammate a worktree:
// team_spawn fails saying so, and no teammate is left on the team.
func TestTeammateWorktreeNeedsAGitRepository(t *testing.T) {
	t.Setenv("GIT_CEILING_DIRECTORIES", os.TempDir())
	lead := llmtest.Script{Responses: []llmtest.Response{
		call("s1", ToolSpawn, `{"name":"eve","agent":"eve","task":"work","worktree":true}`),
		text("no team then"),
	}}
	h := start(t, lead, approval.Auto, setup{members: map[string]llmtest.Script{"eve": {}}})
	h.run("go")
	res := h.results(protocol.TeamLead, ToolSpawn)
	if len(res) != 1 || !contains(res[0], CodeTeamFailed) || !contains(res[0], "not in a git repository") {
		t.Fatalf("team_spawn in a folder without git: %v", res)
	}
	if st := h.team.State(); len(st.Teammates) != 0 {
		t.Fatalf("a teammate is left: %+v", st.Teammates)
	}
	if n := h.requests("eve"); n != 0 {
		t.Fatalf("eve ran %d model requests", n)
	}
}

// A resumed session's teammate that worked in its worktree is woken in it
// again: its fresh session's tools are bound to the worktree, not to the
// lead's workspace.
func TestResumedTeammateWorksInItsWorktree(t *testing.T) {
	root := gitRepo(t, map[string]string{"a.txt": "a\n"})
	store := session.NewStore(t.TempDir())
	log, err := store.Create(root, "s-wt")
	if err != nil {
		t.Fatal(err)
	}
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("s1", ToolSpawn, `{"name":"bob","agent":"bob","task":"write","worktree":true}`),
		text("bob is on it"),
	}}, approval.Auto, setup{root: root, log: log, members: map[string]llmtest.Script{
		"bob": {Responses: []llmtest.Response{text("ready")}},
	}})
	h.run("go")
	wt := h.waitState("bob", protocol.TeammateIdle).Worktree
	if wt == "" {
		t.Fatalf("bob has no worktree: %v", h.results(protocol.TeamLead, ToolSpawn))
	}
	h.sess.Close()

	log2, past, err := store.Open(root, "s-wt")
	if err != nil {
		t.Fatal(err)
	}
	h2 := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("m1", ToolMessage, `{"to":"bob","text":"write b.txt"}`),
		text("asked bob"),
	}}, approval.Auto, setup{root: root, log: log2, past: past, members: map[string]llmtest.Script{
		"bob": {Responses: []llmtest.Response{call("b1", "write_file", `{"path":"b.txt","content":"b\n"}`), text("wrote b")}},
	}})
	if got := h2.member("bob"); got.Worktree != wt || got.WorktreeBranch != "gatehouse/team-bob" {
		t.Fatalf("resumed bob %+v, want his worktree %s", got, wt)
	}
	h2.run("go on")
	eventually(t, "bob wrote b.txt", func() bool { return len(h2.results("bob", "write_file")) == 1 })
	h2.waitState("bob", protocol.TeammateIdle)
	if b, err := os.ReadFile(filepath.Join(wt, "b.txt")); err != nil || string(b) != "b\n" {
		t.Fatalf("b.txt in bob's worktree: %q, %v (result %v)", b, err, h2.results("bob", "write_file"))
	}
	if _, err := os.Stat(filepath.Join(root, "b.txt")); err == nil {
		t.Fatal("the resumed bob wrote in the lead's workspace")
	}
}

// A teammate in its own worktree is judged in its worktree: the user's
// standing rules name workspace paths, and they match the same paths of
// the worktree. In safe mode a rule allowing writes to notes/** lets the
// teammate's write of notes/a.md in its worktree go unasked, as the lead's
// in its folder would; a deny of secret.txt refuses its read of it
// at the gate, with the rule's reason.
func TestWorktreeTeammatesCallsAreJudgedInItsWorktree(t *testing.T) {
	root := gitRepo(t, map[string]string{"README.md": "hello\n", "secret.txt": "PEMSECRET\n"})
	wt := filepath.Join(filepath.Dir(root), "proj.worktrees", "team-alice")
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("s1", ToolSpawn, `{"name":"alice","agent":"alice","task":"write","worktree":true}`),
		text("alice started"),
	}, When: []llmtest.Rule{{LastContains: "[team", Response: text("noted")}}}, approval.Safe, setup{root: root,
		standing: []approval.StandingRule{
			{Rule: protocol.Rule{ID: "notes", Tool: "write_file", Files: []string{"notes/**"}}, Decision: approval.VerdictAllow, Layer: "user"},
			{Rule: protocol.Rule{ID: "secrets", Tool: "read_file", Files: []string{"secret.txt"}}, Decision: approval.VerdictDeny, Reason: "secrets stay out", Layer: "user"},
		},
		members: map[string]llmtest.Script{"alice": {Responses: []llmtest.Response{
			call("a1", "write_file", `{"path":"notes/a.md","content":"notes\n"}`),
			call("a2", "read_file", `{"path":"secret.txt"}`),
			text("done"),
		}}}})
	h.runSpawning("start alice", 1) // the spawn makes a worktree: a write
	eventually(t, "alice idle or asking", func() bool {
		s := h.member("alice").State
		return s == protocol.TeammateIdle || s == protocol.TeammateWaiting
	})
	if s := h.member("alice"); s.State != protocol.TeammateIdle {
		pv, _ := json.Marshal(h.gui().Pending())
		t.Fatalf("alice's write the user's rule allows asked: %s", pv)
	}
	if b, err := os.ReadFile(filepath.Join(wt, "notes", "a.md")); err != nil || string(b) != "notes\n" {
		t.Fatalf("notes/a.md in the worktree: %q, %v", b, err)
	}
	if got := h.results("alice", "read_file"); len(got) != 1 || !contains(got[0], "secrets stay out") || contains(got[0], "PEMSECRET") {
		t.Fatalf("alice's read of the denied file: %v", got)
	}
}

// The dialog of a worktree teammate's command is drawn against its
// worktree: reading and writing there is not "outside the workspace",
// while reading the lead's folder is.
func TestWorktreeTeammatesCommandIsAnalysedInItsWorktree(t *testing.T) {
	root := gitRepo(t, map[string]string{"README.md": "hello\n"})
	wt := filepath.Join(filepath.Dir(root), "proj.worktrees", "team-alice")
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("s1", ToolSpawn, `{"name":"alice","agent":"alice","task":"copy","worktree":true}`),
		text("alice started"),
	}, When: []llmtest.Rule{{LastContains: "[team", Response: text("noted")}}}, approval.Safe, setup{root: root,
		members: map[string]llmtest.Script{"alice": {Responses: []llmtest.Response{
			call("a1", "bash", js(map[string]string{"action": "exec", "command": "cat " + filepath.Join(wt, "README.md") + " " + filepath.Join(root, "README.md") + " > " + filepath.Join(wt, "copy.txt")})),
		}}}}) // rejected: the turn stops there
	h.runSpawning("start alice", 1)
	req := h.pendingBy("alice")["alice"]
	if req.Preview.Command == nil || len(req.Preview.Command.Segments) != 1 {
		t.Fatalf("the command's preview %+v", req.Preview)
	}
	seg := req.Preview.Command.Segments[0]
	if seg.WritesOutside || len(seg.ReadsOutside) != 1 || !strings.HasPrefix(seg.ReadsOutside[0], root+"/") {
		t.Fatalf("alice's command, drawn against her worktree: writes outside %v, reads outside %v", seg.WritesOutside, seg.ReadsOutside)
	}
	h.answer(req, protocol.DecisionReject, "no")
	h.waitState("alice", protocol.TeammateIdle)
}

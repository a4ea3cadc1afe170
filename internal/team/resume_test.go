package team

import (
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/session"
)

// A resumed session gets its team back: the board, the messages, each
// teammate idle with its transcript under the spawn call; a message wakes
// one in a fresh session told its task and what it said last.
func TestResumeRestoresTheTeamIdle(t *testing.T) {
	store := session.NewStore(t.TempDir())
	root := t.TempDir()
	log, err := store.Create(root, "s-team")
	if err != nil {
		t.Fatal(err)
	}
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		calls(tc("s1", ToolSpawn, `{"name":"bob","agent":"bob","task":"review the notes"}`),
			tc("u1", ToolUpdate, `{"id":"t1","status":"open","title":"notes","owner":"bob"}`)),
		text("bob is on it"),
	}}, approval.Auto, setup{root: root, log: log, members: map[string]llmtest.Script{
		"bob": {Responses: []llmtest.Response{text("ready to review")}},
	}})
	h.run("make a team")
	h.waitState("bob", protocol.TeammateIdle)
	h.sess.Close()

	log2, past, err := store.Open(root, "s-team")
	if err != nil {
		t.Fatal(err)
	}
	if !WasOn(past) {
		t.Fatal("the log does not say teams were on")
	}
	h2 := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("m1", ToolMessage, `{"to":"bob","text":"please start"}`),
		text("asked bob"),
	}}, approval.Auto, setup{root: root, log: log2, past: past, members: map[string]llmtest.Script{
		"bob": {Responses: []llmtest.Response{text("starting")}},
	}})
	bob := h2.member("bob")
	if bob.State != protocol.TeammateIdle || bob.Reason != "the session was resumed" || bob.CallID != "s1" {
		t.Fatalf("resumed bob %+v", bob)
	}
	st := h2.team.State()
	if len(st.Board) != 1 || st.Board[0].ID != "t1" || st.Board[0].Owner != "bob" {
		t.Fatalf("resumed board %+v", st.Board)
	}
	if ct := h2.sess.Snapshot().Children["s1"]; ct.Agent != "bob" || len(ct.Items) == 0 {
		t.Fatalf("bob's transcript under the spawn call %+v", ct)
	}
	h2.run("go on")
	h2.waitState("bob", protocol.TeammateIdle)
	eventually(t, "bob woken", func() bool { return h2.requests("bob") == 1 })
	req := h2.request("bob", 0)
	if !contains(req, "what you said last") || !contains(req, "ready to review") || !contains(req, "please start") {
		t.Fatalf("bob's first request after the resume:\n%s", req)
	}
}

package gui

import (
	"slices"
	"testing"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
)

// Teams are off in a new session: Team says so and no team tool is
// offered. TeamsEnable turns them on: the next request offers the lead's
// five, the snapshot carries the team, a spawned teammate shows in it with
// its transcript, and TeamStop stops it.
func TestWindowTurnsTeamsOn(t *testing.T) {
	call := func(id, name, args string) llmtest.Response {
		return llmtest.Response{ToolCalls: []llmtest.ToolCall{{ID: id, Name: name, Arguments: llmtest.Text(args)}}}
	}
	app, _ := newTestApp(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: llmtest.Text("hello")},
		call("s1", "team_spawn", `{"name":"scout","agent":"explore","task":"look around"}`),
		{Text: llmtest.Text("scout is looking")},
		{Text: llmtest.Text("nothing here")},
	}, When: []llmtest.Rule{{LastContains: "[team", Response: llmtest.Response{Text: llmtest.Text("noted")}}}})
	if _, err := app.Submit(protocol.Submission{Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	if st := app.Team(); st.Enabled || app.Snapshot().Team != nil {
		t.Fatalf("teams on before asked: %+v", st)
	}
	if _, err := app.TeammateTranscript("scout"); err == nil {
		t.Fatal("a transcript read with teams off")
	}
	st, err := app.TeamsEnable()
	if err != nil || !st.Enabled || st.MaxTeammates != 4 {
		t.Fatalf("TeamsEnable: %+v %v", st, err)
	}
	if _, err := app.Submit(protocol.Submission{Text: "make a scout"}); err != nil {
		t.Fatal(err)
	}
	var team *protocol.TeamState
	waitFor(t, "scout idle in the snapshot", func() bool {
		team = app.Snapshot().Team
		return team != nil && len(team.Teammates) == 1 && team.Teammates[0].State == protocol.TeammateIdle
	})
	// The lead's answer after the spawn may come after scout went idle.
	waitIdle(t, app)
	if team.Teammates[0].Name != "scout" || team.Teammates[0].CallID != "s1" {
		t.Fatalf("teammate %+v", team.Teammates[0])
	}
	items, err := app.TeammateTranscript("scout")
	if err != nil || len(items) == 0 || !slices.ContainsFunc(items, func(it protocol.TranscriptItem) bool { return it.Kind == protocol.ItemAssistant }) {
		t.Fatalf("scout's transcript %+v %v", items, err)
	}
	if err := app.TeamStop("scout"); err != nil {
		t.Fatal(err)
	}
	if s := app.Team().Teammates[0].State; s != protocol.TeammateStopped {
		t.Fatalf("after TeamStop: %s", s)
	}
}

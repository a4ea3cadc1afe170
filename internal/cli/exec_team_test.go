package cli

import (
	"context"
	"testing"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/team/teamtest"
)

// exec --experimental teams gives the lead the team tools and ends when
// the team is quiet: a teammate's message to the lead, after the lead's
// first turn ended, starts a turn of the lead's, and exec waits for it.
// --json prints the teammate's events with its name.
func TestExecTeamEndsWhenQuiet(t *testing.T) {
	srv := llmtest.Start(t, teamtest.ScoutReports())
	env := testEnv(t, nil)
	ws := t.TempDir()
	r := runExec(t, context.Background(), env, "--workspace", ws, "--prompt", "make a team", "--experimental", "teams",
		"--approval", "safe", "--base-url", srv.URL, "--model", "fake-model", "--json")
	if r.code != ExitCompleted {
		t.Fatalf("exit %d; stderr:\n%s\n%s", r.code, r.stderr, r.stdout)
	}
	evs := parseEvents(t, r.stdout)
	var mates, sent int
	told := false
	for _, e := range evs {
		if e.Teammate != "" {
			if e.Teammate != "scout" || e.Agent != "scout" || e.ParentCallID != "s1" {
				t.Errorf("teammate event %+v", e)
			}
			mates++
		}
		switch p := e.Payload.(type) {
		case protocol.TeamMessage:
			sent++
		case protocol.MessageDonePayload:
			told = told || (e.ParentCallID == "" && p.Text == "scout found a.txt")
		}
	}
	if mates == 0 || sent != 1 || !told {
		t.Fatalf("teammate events %d, messages %d, the lead read the message: %v\n%s", mates, sent, told, r.stdout)
	}
}

func TestExecRefusesAnUnknownExperiment(t *testing.T) {
	r := runExec(t, context.Background(), testEnv(t, nil), "--workspace", t.TempDir(), "--prompt", "x", "--experimental", "swarms")
	if r.code != ExitUsage {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
}

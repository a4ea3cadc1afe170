package team

import (
	"strings"
	"testing"
)

// The window tells a turn the team starts for the lead as the team's by the
// prompt's "[team] " start (frontend: components/team/TeamMessageCard.tsx).
func TestTheLeadsWakeStartsAsTheWindowExpects(t *testing.T) {
	if !strings.HasPrefix(wakeLead, "[team] ") {
		t.Fatalf("wakeLead %q: the window shows a turn as the team's by its \"[team] \" start", wakeLead)
	}
}

package session

import (
	"slices"
	"testing"
	"time"

	"gatehouse/internal/proc"
	"gatehouse/internal/protocol"
)

type eventList []protocol.Event

func (l *eventList) Publish(e protocol.Event) { *l = append(*l, e) }

// TestProcessEventsCarryTheDomains: an ended process's exit event, and the
// snapshot folded from it, say which domains it reached and was refused
// through the network proxy (the process panel shows them).
func TestProcessEventsCarryTheDomains(t *testing.T) {
	var got eventList
	end, code := time.Now(), 0
	info := proc.Info{ProcessID: "p1", Command: "curl", Status: proc.StatusExited, ExitCode: &code, StartedAt: end, EndedAt: &end,
		Network: &proc.NetUse{Reached: []string{"example.com"}, Refused: []string{"evil.test"}}}
	ProcEvents{Events: &got, SessionID: "s1"}.Exited(info)
	p := got[0].Payload.(protocol.ProcessExitedPayload)
	if p.Network == nil || !slices.Equal(p.Network.Reached, []string{"example.com"}) || !slices.Equal(p.Network.Refused, []string{"evil.test"}) {
		t.Fatalf("the exit event's domains: %+v", p.Network)
	}
	st := NewState("s1", nil, nil)
	st.Emit(got[0])
	if ps := st.Snapshot().Processes; len(ps) != 1 || ps[0].Network == nil || ps[0].Network.Refused[0] != "evil.test" {
		t.Fatalf("the snapshot's process: %+v", ps)
	}
	info.Network = nil
	if ProcessInfo(info).Network != nil {
		t.Fatal("a process without the proxy says it used the network")
	}
}

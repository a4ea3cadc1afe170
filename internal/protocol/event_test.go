package protocol

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestEnvelopeJSONNames(t *testing.T) {
	b, err := json.Marshal(Event{Seq: 7, SessionID: "s1", TurnID: "t1", Type: TurnStarted, Payload: TurnStartedPayload{Prompt: "hi"}})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"seq":7,"sessionId":"s1","turnId":"t1","type":"turn.started","payload":{"prompt":"hi"}}`
	if string(b) != want {
		t.Fatalf("got %s\nwant %s", b, want)
	}
}

// Every listed type decodes to its own payload struct, by value.
func TestEventRoundTripEveryType(t *testing.T) {
	seen := map[EventType]bool{}
	for _, p := range Payloads() {
		if seen[p.Type] {
			t.Errorf("%s listed twice", p.Type)
		}
		seen[p.Type] = true
		b, err := json.Marshal(Event{Seq: 1, Type: p.Type, Payload: p.Payload})
		if err != nil {
			t.Fatal(err)
		}
		var e Event
		if err := json.Unmarshal(b, &e); err != nil {
			t.Fatalf("%s: %v", p.Type, err)
		}
		if reflect.TypeOf(e.Payload) != reflect.TypeOf(p.Payload) {
			t.Errorf("%s decoded to %T, want %T", p.Type, e.Payload, p.Payload)
		}
	}
	// The 14 of DESIGN.md, approval.stale (issue 8's stale previews),
	// context.compacted / context.compaction_undone (issue 20),
	// mcp.updated and mcp.waiting (issue 15's servers panel and the
	// transcript item of servers a turn runs without) and undo.applied
	// (issue 18), images.dropped (issue 30: files dropped on the window
	// from another application), budget.updated (issue 41: a session's
	// spending against its limits), approval.diagnostics and
	// diagnostics.updated (issue 43: language servers), question.asked and
	// question.resolved (issue 45: MCP servers' questions), tool.progress
	// (issue 45: a long MCP call's progress on its card), team.enabled,
	// team.teammate, team.message, team.board and team.notice (issue 46:
	// agent teams).
	if len(seen) != 32 {
		t.Errorf("%d event types, want 32", len(seen))
	}
}

func TestDecodeKeepsFields(t *testing.T) {
	code := 2
	in := Event{Seq: 3, SessionID: "s", Type: ProcessStarted, Payload: ProcessStartedPayload{ProcessInfo{
		ProcessID: "p1", Command: "make", Status: StatusExited, ExitCode: &code}}}
	b, _ := json.Marshal(in)
	if !strings.Contains(string(b), `"processId":"p1"`) {
		t.Fatalf("embedded info not flattened: %s", b)
	}
	var out Event
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Fatalf("got %#v\nwant %#v", out, in)
	}
}

func TestUnknownTypeKeepsRawPayload(t *testing.T) {
	var e Event
	if err := json.Unmarshal([]byte(`{"seq":1,"type":"future.thing","payload":{"x":1}}`), &e); err != nil {
		t.Fatal(err)
	}
	raw, ok := e.Payload.(json.RawMessage)
	if !ok || string(raw) != `{"x":1}` {
		t.Fatalf("payload %#v", e.Payload)
	}
}

func TestBadPayloadIsAnError(t *testing.T) {
	var e Event
	err := json.Unmarshal([]byte(`{"seq":1,"type":"turn.stopped","payload":{"reason":5}}`), &e)
	if err == nil || !strings.Contains(err.Error(), "turn.stopped") {
		t.Fatalf("err = %v", err)
	}
}

func TestEnumsValid(t *testing.T) {
	if !StopMaxSteps.Valid() || StopReason("done").Valid() {
		t.Error("StopReason.Valid")
	}
	if !DecisionPartial.Valid() || !DecisionAlways.Valid() || DecisionKind("forever").Valid() {
		t.Error("DecisionKind.Valid")
	}
}

func TestDecisionJSON(t *testing.T) {
	b, _ := json.Marshal(Decision{Kind: DecisionReject, Note: "not now"})
	if string(b) != `{"kind":"reject","note":"not now"}` {
		t.Fatalf("%s", b)
	}
	b, _ = json.Marshal(Decision{Kind: DecisionPartial, Files: []string{"a.go"}, Hunks: []string{"a.go#1"}})
	if string(b) != `{"kind":"partial","files":["a.go"],"hunks":["a.go#1"]}` {
		t.Fatalf("%s", b)
	}
}

func TestUsageAdd(t *testing.T) {
	got := Usage{1, 2, 3, 4}.Add(Usage{10, 20, 30, 40})
	if got != (Usage{11, 22, 33, 44}) {
		t.Fatalf("%+v", got)
	}
}

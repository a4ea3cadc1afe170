//go:build linux

package approval_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/protocol"
)

var once = protocol.Decision{Kind: protocol.DecisionOnce}

// TestModesAskOrNot runs every tool and bash action in every mode through
// the real gate and gateway and checks which ones ask.
func TestModesAskOrNot(t *testing.T) {
	type call struct {
		tool, args string
		readOnly   bool
	}
	calls := []call{
		{"read_file", `{"path":"a.txt"}`, true},
		{"list_dir", `{"path":"."}`, true},
		{"glob", `{"pattern":"*.txt"}`, true},
		{"grep", `{"pattern":"hello"}`, true},
		{"write_file", `{"path":"w.txt","content":"w\n"}`, false},
		{"apply_patch", `{"patch":"*** Begin Patch\n*** Update File: a.txt\n@@\n-hello\n+hi\n*** End Patch"}`, false},
		{"bash", `{"action":"exec","command":"echo run"}`, false},
		{"bash", `{"action":"start","command":"cat"}`, false},
		{"bash", `{"action":"status","processId":"%s"}`, true},
		{"bash", `{"action":"logs","processId":"%s"}`, true},
		{"bash", `{"action":"list"}`, true},
		{"bash", `{"action":"write","processId":"%s","input":"x\n"}`, false},
		{"bash", `{"action":"stop","processId":"%s"}`, false},
		{"notify", `{"text":"hi"}`, false},
	}
	for _, mode := range []approval.Mode{approval.Manual, approval.Safe, approval.Auto} {
		t.Run(string(mode), func(t *testing.T) {
			h := newHarness(t, mode, map[string]string{"a.txt": "hello\n"})
			h.answerAll(once)
			// A process for the actions that address one, started unasked.
			h.setMode(approval.Auto)
			_, started := h.run(context.Background(), "bash", `{"action":"start","command":"cat"}`)
			pid, _ := started["processId"].(string)
			h.setMode(mode)
			for _, c := range calls {
				args := c.args
				if strings.Contains(args, "%s") {
					args = fmt.Sprintf(args, pid)
				}
				before := len(h.requests())
				res, out := h.run(context.Background(), c.tool, args)
				asked := len(h.requests()) > before
				want := mode == approval.Manual || mode == approval.Safe && !c.readOnly
				if asked != want {
					t.Errorf("%s %s: asked %v, want %v", c.tool, args, asked, want)
				}
				if res.IsError {
					t.Errorf("%s %s: approved call failed: %s", c.tool, args, res.Output)
				}
				_ = out
			}
			if h.read("a.txt") != "hi\n" || h.read("w.txt") != "w\n" {
				t.Errorf("files: %q %q", h.read("a.txt"), h.read("w.txt"))
			}
		})
	}
}

// TestModeSwitchAppliesToTheNextCall: the mode is read per call.
func TestModeSwitchAppliesToTheNextCall(t *testing.T) {
	h := newHarness(t, approval.Auto, nil)
	h.answerAll(protocol.Decision{Kind: protocol.DecisionReject})
	if res, _ := h.run(context.Background(), "write_file", `{"path":"a.txt","content":"1"}`); res.IsError {
		t.Fatalf("auto: %s", res.Output)
	}
	h.setMode(approval.Safe)
	res, _ := h.run(context.Background(), "write_file", `{"path":"a.txt","content":"2"}`)
	if !res.Rejected || h.read("a.txt") != "1" {
		t.Fatalf("safe after auto: %s, file %q", res.Output, h.read("a.txt"))
	}
}

func TestRejectReturnsATypedResultAndChangesNothing(t *testing.T) {
	h := newHarness(t, approval.Safe, map[string]string{"a.txt": "hello\n"})
	h.answerAll(protocol.Decision{Kind: protocol.DecisionReject, Note: "use tabs"})
	res, out := h.run(context.Background(), "apply_patch", `{"patch":"*** Begin Patch\n*** Update File: a.txt\n@@\n-hello\n+hi\n*** End Patch"}`)
	if !res.Rejected || !res.IsError || errCode(out) != "approval_rejected" || errMessage(out) != "[approval-rejected] use tabs" {
		t.Fatalf("result %+v %s", res, res.Output)
	}
	if h.read("a.txt") != "hello\n" {
		t.Errorf("file changed: %q", h.read("a.txt"))
	}
	res, _ = h.run(context.Background(), "bash", `{"action":"exec","command":"touch made"}`)
	if !res.Rejected || h.read("made") != "<open "+h.root+"/made: no such file or directory>" {
		t.Errorf("bash ran: %s", res.Output)
	}
	if rs := h.resolutions(); len(rs) != 2 || rs[0].Decision.Kind != protocol.DecisionReject {
		t.Errorf("resolutions %+v", rs)
	}
}

// TestInvalidCallsFailBeforeAsking: a patch that does not apply, or a path
// outside the workspace, returns its error without a dialog.
func TestInvalidCallsFailBeforeAsking(t *testing.T) {
	h := newHarness(t, approval.Manual, map[string]string{"a.txt": "hello\n"})
	h.answerAll(once)
	for _, c := range [][2]string{
		{"apply_patch", `{"patch":"*** Begin Patch\n*** Update File: a.txt\n@@\n-nothere\n+x\n*** End Patch"}`},
		{"write_file", `{"path":"../out.txt","content":"x"}`},
		{"bash", `{"action":"exec","command":"ls","cwd":"/"}`},
	} {
		res, _ := h.run(context.Background(), c[0], c[1])
		if !res.IsError || res.Rejected {
			t.Errorf("%s: %s", c[0], res.Output)
		}
	}
	if n := len(h.requests()); n != 0 {
		t.Errorf("%d requests for calls that cannot run", n)
	}
}

func TestSessionRules(t *testing.T) {
	h := newHarness(t, approval.Safe, map[string]string{"a.txt": "a\n", "x/keep": "k"})
	h.answerAll(protocol.Decision{Kind: protocol.DecisionSession})
	res, _ := h.run(context.Background(), "bash", `{"action":"exec","command":"echo hi"}`)
	if res.IsError || len(h.requests()) != 1 {
		t.Fatalf("first: %s, %d requests", res.Output, len(h.requests()))
	}
	if r := h.requests()[0].Rule; r == nil || len(r.Commands) != 1 || strings.Join(r.Commands[0], " ") != "echo hi" ||
		r.Action != "exec" || r.Cwd != h.root || !strings.Contains(r.Summary, "exactly `echo hi` (exec, in the workspace root") {
		t.Fatalf("proposed rule %+v", r)
	}
	rules := h.gate.Rules().List()
	if len(rules) != 1 || rules[0].ID == "" {
		t.Fatalf("rules %+v", rules)
	}
	// The same command, with harmless redirections, rides on the rule.
	for _, cmd := range []string{"echo hi", "echo  'hi'", "echo hi 2>&1", "echo hi 2>/dev/null"} {
		res, out := h.run(context.Background(), "bash", fmt.Sprintf(`{"action":"exec","command":%q}`, cmd))
		if res.IsError || len(h.requests()) != 1 || !strings.Contains(fmt.Sprint(out["stdout"]), "hi") {
			t.Fatalf("%q asked or failed: %s", cmd, res.Output)
		}
	}
	// Extended, chained, wrapped, redirected to a file, in another folder or
	// started rather than run: it asks; rejected, nothing runs.
	h.answerAll(protocol.Decision{Kind: protocol.DecisionReject, Note: "no"})
	for _, args := range []string{
		`{"action":"exec","command":"echo hi there"}`,
		`{"action":"exec","command":"echo hi > a.txt"}`,
		`{"action":"exec","command":"echo hi >> {x/keep,}"}`,
		`{"action":"exec","command":"echo hi","cwd":"x"}`,
		`{"action":"start","command":"echo hi"}`,
		`{"action":"exec","command":"echo hi && rm -rf x"}`,
		`{"action":"exec","command":"echo hi; rm -rf x"}`,
		`{"action":"exec","command":"echo hi | sh"}`,
		`{"action":"exec","command":"echo hi $(rm -rf x)"}`,
		`{"action":"exec","command":"bash -c 'echo hi'"}`,
		`{"action":"exec","command":"env echo hi"}`,
		`{"action":"exec","command":"sudo echo hi"}`,
		`{"action":"exec","command":"echo hi > /tmp/gatehouse-approval-test"}`,
	} {
		before := len(h.requests())
		res, _ := h.run(context.Background(), "bash", args)
		if len(h.requests()) != before+1 || !res.Rejected {
			t.Errorf("%s did not ask: %s", args, res.Output)
		}
	}
	if h.read("x/keep") != "k" || h.read("a.txt") != "a\n" {
		t.Fatal("a file was changed")
	}

	// Files: a rule for a.txt covers a.txt only.
	h.answerAll(protocol.Decision{Kind: protocol.DecisionSession})
	h.run(context.Background(), "write_file", `{"path":"a.txt","content":"1\n"}`)
	n := len(h.requests())
	h.run(context.Background(), "write_file", `{"path":"./a.txt","content":"2\n"}`)
	if len(h.requests()) != n || h.read("a.txt") != "2\n" {
		t.Fatalf("covered write asked (%d requests) or failed: %q", len(h.requests()), h.read("a.txt"))
	}
	h.run(context.Background(), "write_file", `{"path":"b.txt","content":"b\n"}`)
	if len(h.requests()) != n+1 {
		t.Fatal("an uncovered file did not ask")
	}
	// Revoked, it asks again.
	for _, r := range h.gate.Rules().List() {
		if r.Tool == "write_file" {
			if err := h.gate.Rules().Revoke(r.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	h.run(context.Background(), "write_file", `{"path":"a.txt","content":"3\n"}`)
	if len(h.requests()) != n+2 {
		t.Fatal("a revoked rule still covers")
	}

	var byRule, added int
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, r := range h.records {
		if r.By == approval.ByRule {
			byRule++
		}
		if r.Kind == approval.RecordRuleAdded {
			added++
		}
	}
	if byRule != 5 || added < 2 {
		t.Errorf("records: %d by rule, %d rules added", byRule, added)
	}
}

// TestMoveNeedsBothPaths: a rule covering the source of a move does not
// cover the move.
func TestMoveNeedsBothPaths(t *testing.T) {
	h := newHarness(t, approval.Safe, map[string]string{"a.txt": "a\n"})
	h.answerAll(protocol.Decision{Kind: protocol.DecisionSession})
	h.run(context.Background(), "apply_patch", `{"patch":"*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+b\n*** End Patch"}`)
	h.run(context.Background(), "apply_patch", `{"patch":"*** Begin Patch\n*** Update File: a.txt\n*** Move to: c.txt\n@@\n-b\n+c\n*** End Patch"}`)
	reqs := h.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if r := reqs[1].Rule; r == nil || strings.Join(r.Files, ",") != "c.txt,a.txt" && strings.Join(r.Files, ",") != "a.txt,c.txt" {
		t.Errorf("move rule %+v", reqs[1].Rule)
	}
	if h.read("c.txt") != "c\n" {
		t.Errorf("c.txt %q", h.read("c.txt"))
	}
}

// A call's result says how it went ahead: asked and answered by the user
// (with the time it waited), covered by a session rule (naming the rule),
// or unasked (nothing).
func TestResultSaysWhoApproved(t *testing.T) {
	h := newHarness(t, approval.Safe, map[string]string{"a.txt": "hello\n"})
	h.answerAll(protocol.Decision{Kind: protocol.DecisionSession})
	res, _ := h.run(context.Background(), "bash", `{"action":"exec","command":"echo one"}`)
	if res.Approval == nil || res.Approval.By != "user" || len(res.Approval.Rules) != 0 || res.Waited <= 0 {
		t.Fatalf("asked call: %+v waited %v", res.Approval, res.Waited)
	}
	before := len(h.requests())
	res, _ = h.run(context.Background(), "bash", `{"action":"exec","command":"echo one"}`)
	if len(h.requests()) != before {
		t.Fatal("the rule's call asked")
	}
	a := res.Approval
	if a == nil || a.By != "rule" || len(a.Rules) != 1 || a.Rules[0].ID == "" || fmt.Sprint(a.Rules[0].Commands) != "[[echo one]]" || a.Rules[0].Action != "exec" || res.Waited != 0 {
		t.Fatalf("rule-covered call: %+v waited %v", a, res.Waited)
	}
	if ids := h.gate.Rules().List(); len(ids) != 1 || ids[0].ID != a.Rules[0].ID {
		t.Errorf("the result names rule %s, the session has %+v", a.Rules[0].ID, ids)
	}
	if res, _ := h.run(context.Background(), "read_file", `{"path":"a.txt"}`); res.Approval != nil {
		t.Errorf("an unasked call: %+v", res.Approval)
	}
	h.answerAll(protocol.Decision{Kind: protocol.DecisionReject})
	if res, _ := h.run(context.Background(), "write_file", `{"path":"b.txt","content":"x"}`); !res.Rejected || res.Approval == nil || res.Approval.By != "user" {
		t.Errorf("a rejected call: %+v", res.Approval)
	}
}

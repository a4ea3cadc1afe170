//go:build linux

package approval_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

func standingRule(t *testing.T, id string, v approval.Verdict, tool string, cmds ...string) approval.StandingRule {
	t.Helper()
	r := approval.StandingRule{Rule: protocol.Rule{ID: id, Tool: tool, Summary: id}, Decision: v, Layer: "user", File: "/cfg/policy.toml"}
	for _, c := range cmds {
		w, err := approval.CommandPattern(c)
		if err != nil {
			t.Fatal(err)
		}
		r.Commands = append(r.Commands, w)
	}
	return r
}

func (h *harness) exec(cmd string) (tools.Result, map[string]any) {
	return h.run(context.Background(), "bash", fmt.Sprintf(`{"action":"exec","command":%q}`, cmd))
}

// TestStandingDenyHoldsInEveryMode: a deny rule refuses in auto too, says
// which rule and why to the model, runs nothing, and the turn goes on
// (not a rejection).
func TestStandingDenyHoldsInEveryMode(t *testing.T) {
	for _, mode := range []approval.Mode{approval.Auto, approval.Safe, approval.Manual} {
		h := newHarness(t, mode, map[string]string{"a.txt": "a\n"})
		h.answerAll(protocol.Decision{Kind: protocol.DecisionOnce})
		d := standingRule(t, "p-deny", approval.VerdictDeny, "bash", "rm **")
		d.Reason = "never delete from here"
		h.standing = []approval.StandingRule{d}
		res, out := h.exec("ls && rm a.txt")
		if !res.IsError || res.Rejected || errCode(out) != "policy_denied" || len(h.requests()) != 0 {
			t.Fatalf("%s: %+v %v", mode, res, out)
		}
		msg := errMessage(out)
		for _, want := range []string{"p-deny", "user policy", "/cfg/policy.toml", "never delete from here"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: the model reads %q, want %q in it", mode, msg, want)
			}
		}
		if h.read("a.txt") != "a\n" {
			t.Fatalf("%s: the file was deleted", mode)
		}
		if res.Approval == nil || res.Approval.By != "policy" || len(res.Approval.Standing) != 1 {
			t.Errorf("%s: card approval %+v", mode, res.Approval)
		}
		if len(h.audit) != 1 || h.audit[0].By != approval.ByPolicy || h.audit[0].Decision != approval.VerdictDeny {
			t.Errorf("%s: audit %+v", mode, h.audit)
		}
	}
}

// TestStandingAllowAndAsk: an allow rule runs its exact command in manual
// mode without a dialog, and the card names the rule and file; anything
// more asks; an ask rule asks in auto mode, even over a session rule.
func TestStandingAllowAndAsk(t *testing.T) {
	h := newHarness(t, approval.Manual, nil)
	h.answerAll(protocol.Decision{Kind: protocol.DecisionReject, Note: "no"})
	h.standing = []approval.StandingRule{standingRule(t, "p-echo", approval.VerdictAllow, "bash", "echo hi*")}
	res, out := h.exec("echo hi")
	if res.IsError || len(h.requests()) != 0 || !strings.Contains(fmt.Sprint(out["stdout"]), "hi") {
		t.Fatalf("allowed call: %+v", res)
	}
	if a := res.Approval; a == nil || a.By != "policy" || len(a.Standing) != 1 || a.Standing[0].ID != "p-echo" || a.Standing[0].File != "/cfg/policy.toml" {
		t.Fatalf("card: %+v", res.Approval)
	}
	if res, _ := h.exec("echo hi && echo there"); !res.Rejected || len(h.requests()) != 1 {
		t.Fatalf("a chained call rode: %+v", res)
	}
	if len(h.audit) != 1 || h.audit[0].Standing[0].ID != "p-echo" || h.audit[0].Mode != approval.Manual {
		t.Fatalf("audit %+v", h.audit)
	}

	h.setMode(approval.Auto)
	h.standing = append(h.standing, standingRule(t, "p-ask", approval.VerdictAsk, "bash", "echo **"))
	h.gate.Rules().Add(protocol.Rule{Tool: "bash", Commands: [][]string{{"echo", "hi"}}, Action: "exec", Cwd: h.root})
	before := len(h.requests())
	if res, _ := h.exec("echo hi"); !res.Rejected || len(h.requests()) != before+1 {
		t.Fatalf("an ask rule did not ask in auto mode over a session rule: %+v", res)
	}
	// With no standing rule naming the tool, auto runs it, and the audit
	// log says the mode decided.
	h.standing = nil
	h.audit = nil
	if res, _ := h.exec("echo ok"); res.IsError {
		t.Fatalf("auto: %+v", res)
	}
	if len(h.audit) != 1 || h.audit[0].By != approval.ByMode || h.audit[0].Mode != approval.Auto {
		t.Fatalf("audit %+v", h.audit)
	}
}

// TestAlwaysAllowSavesTheOfferedRule: "always" saves the rule the dialog
// offered as a standing allow rule; the next session's (the same gate's
// standing policy) exact call runs without a dialog, a longer one asks.
func TestAlwaysAllowSavesTheOfferedRule(t *testing.T) {
	h := newHarness(t, approval.Manual, nil)
	h.answerAll(protocol.Decision{Kind: protocol.DecisionAlways, Scope: "everywhere"})
	if res, _ := h.exec("echo hi"); res.IsError || len(h.requests()) != 1 {
		t.Fatalf("first: %+v", res)
	}
	if len(h.standing) != 1 || h.standing[0].Layer != "everywhere" || len(h.gate.Rules().List()) != 0 {
		t.Fatalf("saved %+v, session rules %+v", h.standing, h.gate.Rules().List())
	}
	h.answerAll(protocol.Decision{Kind: protocol.DecisionReject})
	if res, _ := h.exec("echo hi"); res.IsError || len(h.requests()) != 1 || res.Approval.By != "policy" {
		t.Fatalf("repeat: %+v", res)
	}
	if res, _ := h.exec("echo hi && echo x"); !res.Rejected || len(h.requests()) != 2 {
		t.Fatalf("longer: %+v", res)
	}
	// A bad scope, or always where no rule is offered, is not an answer.
	req := approval.Request{Tool: "bash", Rule: &protocol.Rule{Tool: "bash"}}
	if approval.Validate(req, protocol.Decision{Kind: protocol.DecisionAlways, Scope: "elsewhere"}) == nil ||
		approval.Validate(req, protocol.Decision{Kind: protocol.DecisionOnce, Scope: "everywhere"}) == nil ||
		approval.Validate(approval.Request{Tool: "notify"}, protocol.Decision{Kind: protocol.DecisionAlways}) == nil ||
		approval.Validate(req, protocol.Decision{Kind: protocol.DecisionAlways, Scope: "everywhere"}) != nil {
		t.Fatal("Validate")
	}
}

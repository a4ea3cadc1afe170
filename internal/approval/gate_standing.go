package approval

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

// AuditEntry is one call decided without a person: by the mode, a session
// rule or the standing policy.
type AuditEntry struct {
	Time    time.Time `json:"time"`
	Session string    `json:"session"`
	CallID  string    `json:"callId"`
	Tool    string    `json:"tool"`
	Agent   string    `json:"agent,omitempty"`
	// Summary is the call as the dialog would have shown it in a line.
	Summary  string                 `json:"summary,omitempty"`
	Mode     Mode                   `json:"mode"`
	By       DecidedBy              `json:"by"`
	Decision Verdict                `json:"decision"`
	RuleIDs  []string               `json:"ruleIds,omitempty"`
	Standing []protocol.StandingRef `json:"standing,omitempty"`
	// Hidden counts the entries the user's policy left out of the result
	// of a call that ran (list_dir, glob, grep); Refused says the workspace
	// boundary refused a read the policy denies (a path the plan did not
	// name). Both are recorded as denials by the policy.
	Hidden  int    `json:"hidden,omitempty"`
	Refused string `json:"refused,omitempty"`
}

func (g *Gate) audit(ctx context.Context, call tools.Call, tool, summary string, mode Mode, by DecidedBy, v Verdict,
	ruleIDs []string, refs []protocol.StandingRef) {
	if g.c.Audit == nil {
		return
	}
	e := g.auditEntry(ctx, call, tool, summary, mode)
	e.By, e.Decision, e.RuleIDs, e.Standing = by, v, ruleIDs, refs
	g.c.Audit(e)
}

func (g *Gate) auditEntry(ctx context.Context, call tools.Call, tool, summary string, mode Mode) AuditEntry {
	if summary == "" {
		summary = tool + " " + clip(strings.Join(strings.Fields(string(call.Args)), " "), 120)
	}
	return AuditEntry{Time: time.Now().UTC(), Session: g.c.Session, CallID: call.ID, Tool: tool, Agent: AgentFrom(ctx),
		Summary: summary, Mode: mode}
}

// auditPolicy runs next and records in the audit log what the user's
// policy kept from the call as it ran, whoever approved it: the entries a
// listing left out (list_dir, glob, grep say how many) and a read the
// workspace boundary refused (a path the plan did not name: a link met
// on the way, a child session's read). The gate's own refusals are
// audited where it decides.
func (g *Gate) auditPolicy(name string, next tools.Handler) tools.Handler {
	return func(ctx context.Context, call tools.Call) (tools.Result, error) {
		res, err := next(ctx, call)
		if err != nil || g.c.Audit == nil {
			return res, err
		}
		hidden, refused := res.HiddenByPolicy, res.FailCode() == tools.CodePolicyDenied
		if hidden == 0 && !refused {
			return res, err
		}
		e := g.auditEntry(ctx, call, name, "", g.c.Mode())
		e.By, e.Decision = ByPolicy, VerdictDeny
		if hidden > 0 {
			e.Hidden = hidden
			e.Summary += fmt.Sprintf(" (%d hidden by the user's policy)", hidden)
		}
		if refused {
			var body struct {
				Error tools.Error `json:"error"`
			}
			json.Unmarshal(res.Output, &body)
			e.Refused = clip(body.Error.Message, 300)
		}
		g.c.Audit(e)
		return res, err
	}
}

// standingKeys are k as standing rules see them; preview gives a bash
// call's folder, action and every simple command, plain or not.
func (g view) standingKeys(k keys, preview protocol.Preview) standingKeys {
	sk := standingKeys{keys: k}
	if c := preview.Command; c != nil {
		sk.action, sk.cwd = c.Action, c.Cwd
		sk.rel = g.relCwd(c.Cwd)
		sk.opaque = c.ParseError != ""
		for _, s := range c.Segments {
			sk.segs = append(sk.segs, s.Args)
			sk.opaque = sk.opaque || s.Opaque
		}
	}
	return sk
}

// relCwd is dir relative to the workspace root, slash-separated.
func (g view) relCwd(dir string) string {
	if g.ws == nil {
		return dir
	}
	r, ok := g.ws.(interface{ Rel(string) string })
	if !ok {
		return dir
	}
	return strings.ReplaceAll(r.Rel(dir), "\\", "/")
}

// Denied is the result of a call the standing policy refuses: the model
// reads "[policy-denied] <why>" and the turn goes on.
func Denied(why string) tools.Result {
	return tools.Fail(tools.CodePolicyDenied, "[policy-denied] "+why+
		". The user's standing policy refuses this call in every mode; do not try to reach the same effect another way.", "")
}

// SaveNotifier is a gateway that tells the person who answered "always"
// what became of it: Saved is called once per always decision, after the
// gate tried to save the rule (err: not saved; the rule then lasts for the
// session), before the call runs.
type SaveNotifier interface {
	Saved(req Request, rule StandingRule, err error)
}

// save saves the rule of an always decision d on req; false when it could
// not (no Save, an error: reported in the decision's record note).
func (g *Gate) save(req Request, d protocol.Decision) (StandingRule, bool) {
	if g.c.Save == nil || req.Rule == nil {
		return StandingRule{}, false
	}
	scope := d.Scope
	if scope == "" {
		scope = "workspace"
	}
	saved, err := g.c.Save(*req.Rule, scope)
	if n, ok := g.c.Gateway.(SaveNotifier); ok {
		n.Saved(req, saved, err)
	}
	if err != nil {
		g.report(Record{Kind: RecordDecision, ApprovalID: req.ApprovalID, CallID: req.CallID, Tool: req.Tool, By: ByUser,
			Decision: &protocol.Decision{Kind: protocol.DecisionSession, Note: "not saved: " + err.Error()}})
		return StandingRule{}, false
	}
	return saved, true
}

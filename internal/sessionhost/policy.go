package sessionhost

import (
	"gatehouse/internal/approval"
	"gatehouse/internal/policy"
	"gatehouse/internal/protocol"
	"gatehouse/internal/trust"
	"gatehouse/internal/workspace"
)

// PolicyWhere is where the standing policy of workspace root is read
// from: the user's files in the config folder and, once trusted, the
// workspace's own.
func (h *Host) PolicyWhere(root string) policy.Where { return PolicyWhereIn(h.env.ConfigDir, root) }

// PolicyWhereIn is PolicyWhere for the config folder configDir.
func PolicyWhereIn(configDir, root string) policy.Where {
	w := policy.Where{ConfigDir: configDir, Workspace: root}
	if configDir != "" {
		w.Trust = trust.NewStore(configDir)
	}
	return w
}

// Audit is the audit log of calls decided without a person, kept with the
// session data (nil: no data folder).
func (h *Host) Audit() *policy.Audit {
	if h.env.DataDir == "" {
		return nil
	}
	return policy.OpenAudit(h.env.DataDir)
}

// standing is the gate's standing policy (none without a config folder)
// and audit log for a session in ws; the log and saving are nil where
// the host has no data or config folder. The policy's read denies become
// ws's boundary predicate, so every reader refuses a denied path (the
// file tools, @-mentions, child sessions), read anew on every call.
func (h *Host) standing(ws *workspace.Workspace) (func() []approval.StandingRule, func(approval.AuditEntry),
	func(protocol.Rule, string) (approval.StandingRule, error)) {
	root := ws.Root()
	// Without a config folder no rules: the mode decides from each plan.
	rules := func() []approval.StandingRule { return nil }
	if h.env.ConfigDir != "" {
		src := policy.NewSource(h.PolicyWhere(root))
		for _, e := range src.Policy().Errors {
			h.o.Logger.Warn("standing policy file not loaded", "err", e.Error())
		}
		rules = src.Rules
		ws.SetDeny(src.Deny())
	}
	var audit func(approval.AuditEntry)
	if a := h.Audit(); a != nil {
		audit = func(e approval.AuditEntry) {
			if err := a.Append(e); err != nil {
				h.o.Logger.Warn("audit log", "err", err)
			}
		}
	}
	var save func(protocol.Rule, string) (approval.StandingRule, error)
	if h.env.ConfigDir != "" {
		w := h.PolicyWhere(root)
		save = func(r protocol.Rule, scope string) (approval.StandingRule, error) {
			return policy.Add(w, policy.Scope(scope), policy.New{Decision: approval.VerdictAllow, Rule: r})
		}
	}
	return rules, audit, save
}

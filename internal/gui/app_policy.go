package gui

import (
	"errors"
	"strings"

	"gatehouse/internal/approval"
	"gatehouse/internal/policy"
	"gatehouse/internal/workspace"
)

// PolicyView is Settings → Permissions: every standing rule with its
// layer, file and uses, the files that did not load, and where new rules go.
type PolicyView struct {
	Rules     []PolicyRule      `json:"rules"`
	Errors    []PolicyFileError `json:"errors"`
	Untrusted string            `json:"untrusted,omitempty"`
	// UntrustedText and UntrustedHash: the untrusted file as read, shown
	// before TrustPolicyFile(UntrustedHash) trusts exactly it.
	UntrustedText string `json:"untrustedText,omitempty"`
	UntrustedHash string `json:"untrustedHash,omitempty"`
	// UserFile and WorkspaceFile are where "everywhere" and "this
	// workspace" rules are saved.
	UserFile      string `json:"userFile"`
	WorkspaceFile string `json:"workspaceFile,omitempty"`
}

// PolicyFileError is a policy file that did not load: where, and why. (A
// plain struct: Wails generates no TypeScript for a type that is an error.)
type PolicyFileError struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
}

// PolicyRule is one standing rule and how often it decided.
type PolicyRule struct {
	approval.StandingRule
	Uses policy.Use `json:"uses"`
	// Written is the rule as the edit form starts from.
	Written policy.Written `json:"written"`
}

func (a *App) policyWhere() policy.Where {
	a.mu.Lock()
	root := a.workspace
	a.mu.Unlock()
	return a.kit.PolicyWhere(root)
}

// Policy lists the standing policy of the open workspace.
func (a *App) Policy() (PolicyView, error) {
	w := a.policyWhere()
	p := policy.Load(w)
	v := PolicyView{Rules: []PolicyRule{}, Errors: []PolicyFileError{}, Untrusted: p.Untrusted, UntrustedText: p.UntrustedText, UntrustedHash: p.UntrustedHash, UserFile: w.UserFile(), WorkspaceFile: w.WorkspaceFile()}
	for _, e := range p.Errors {
		v.Errors = append(v.Errors, PolicyFileError{File: e.File, Line: e.Line, Message: e.Msg})
	}
	uses := policy.Uses{}
	if au := a.kit.Audit(); au != nil {
		uses, _ = au.Uses()
	}
	for _, r := range p.Rules {
		v.Rules = append(v.Rules, PolicyRule{r, uses[r.ID], policy.WrittenOf(r)})
	}
	return v, nil
}

// RemovePolicyRule deletes a standing rule from the user's files; the next
// call it covered asks again.
func (a *App) RemovePolicyRule(id string) (PolicyView, error) {
	if _, err := policy.Remove(a.policyWhere(), id); err != nil {
		return PolicyView{}, err
	}
	return a.Policy()
}

// AddPolicyRule saves rule w in the user's file for this workspace
// (scope "workspace") or everywhere ("everywhere"), as `gatehouse policy
// add` does; a rule that does not load saves nothing and says why.
func (a *App) AddPolicyRule(w policy.Written, scope string) (PolicyView, error) {
	n, err := w.New()
	if err != nil {
		return PolicyView{}, err
	}
	if _, err := policy.Add(a.policyWhere(), policy.Scope(scope), n); err != nil {
		return PolicyView{}, err
	}
	return a.Policy()
}

// EditPolicyRule replaces rule id in the user's file that holds it with w,
// keeping its id; an edit that does not load changes nothing and says why.
func (a *App) EditPolicyRule(id string, w policy.Written) (PolicyView, error) {
	n, err := w.New()
	if err != nil {
		return PolicyView{}, err
	}
	if _, err := policy.Replace(a.policyWhere(), id, n); err != nil {
		return PolicyView{}, err
	}
	return a.Policy()
}

// TrustPolicyFile trusts the workspace's own .gatehouse/policy.toml as the
// page showed it (hash); its ask and deny rules apply from the next call.
func (a *App) TrustPolicyFile(hash string) (PolicyView, error) {
	if err := policy.TrustProject(a.policyWhere(), hash); err != nil {
		return PolicyView{}, err
	}
	return a.Policy()
}

// CheckPolicy says which standing rule decides a call of tool in the
// workspace, and why (as `gatehouse policy check`): for bash, target is the
// command line run in the root; for a file tool, a workspace-relative path;
// "" for a tool as a whole. For a reading tool and a path it also gives
// every route's verdict and what stays open ("test a path").
func (a *App) CheckPolicy(tool, target string) (approval.Decided, error) {
	w := a.policyWhere()
	if w.Workspace == "" {
		return approval.Decided{}, errors.New("choose a workspace folder first")
	}
	ws, err := workspace.New(w.Workspace, workspace.Options{})
	if err != nil {
		return approval.Decided{}, err
	}
	return policy.CheckAll(policy.Load(w).Rules, ws, tool, target), nil
}

// AuditFilter picks audit entries (Settings → Permissions → Audit log).
type AuditFilter struct {
	Session string `json:"session,omitempty"`
	Tool    string `json:"tool,omitempty"`
	By      string `json:"by,omitempty"`
	Rule    string `json:"rule,omitempty"`
	Text    string `json:"text,omitempty"`
}

func (f AuditFilter) filter() policy.Filter {
	return policy.Filter{Session: f.Session, Tool: f.Tool, By: approval.DecidedBy(f.By), Rule: f.Rule, Text: f.Text}
}

// AuditLog lists the newest calls decided without a person (at most 500).
func (a *App) AuditLog(f AuditFilter) ([]approval.AuditEntry, error) {
	au := a.kit.Audit()
	if au == nil {
		return []approval.AuditEntry{}, nil
	}
	es, err := au.List(f.filter(), 500)
	if es == nil {
		es = []approval.AuditEntry{}
	}
	return es, err
}

// ExportAudit returns the entries f keeps as JSON Lines.
func (a *App) ExportAudit(f AuditFilter) (string, error) {
	au := a.kit.Audit()
	if au == nil {
		return "", nil
	}
	var b strings.Builder
	err := au.Export(&b, f.filter())
	return b.String(), err
}

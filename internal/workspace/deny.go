package workspace

import (
	"path/filepath"
	"sync/atomic"
)

// CodeDenied: the user's standing policy denies this path; it equals
// tools.CodePolicyDenied.
const CodeDenied = "policy_denied"

// Deny says why the user's policy denies access to rel (a resolved path
// relative to the workspace root, slash-separated), or "" when it does
// not.
type Deny func(rel string, access Access) string

// DenyFunc returns the Deny of the policy in force now. It is called on
// every resolve and once per walk, so a policy edit applies to the next
// call; it must be safe for concurrent use and must not block.
type DenyFunc func() Deny

// denyHolder keeps the predicate behind an atomic pointer: the roots of a
// Workspace never change, its deny predicate is set by the host that
// opened it (the policy of its root).
type denyHolder struct{ fn atomic.Pointer[DenyFunc] }

// SetDeny makes fn (nil: none) the predicate every Resolve of a path
// inside the workspace root consults, beside the protected places: a path
// it denies is refused with CodeDenied for every reader and writer, the
// file tools, @-mentions and child sessions alike. It is kept apart from
// the roots: a read-only root outside the workspace is not consulted (it
// is not the user's workspace); one inside it (a user skill linked to the
// repository's own folder) is, as the rest of the workspace.
func (w *Workspace) SetDeny(fn DenyFunc) {
	if fn == nil {
		w.deny.fn.Store(nil)
		return
	}
	w.deny.fn.Store(&fn)
}

// Denied says why the user's policy denies access to resolved path abs
// ("" when it does not, or when abs lies outside the workspace root).
func (w *Workspace) Denied(abs string, access Access) string {
	return w.DenyNow()(abs, access)
}

// DenyNow is Denied with the policy in force now, for a walk (list_dir,
// glob, grep) to ask of each entry it finds, leaving out what a read of
// it would be refused.
func (w *Workspace) DenyNow() func(abs string, access Access) string {
	p := w.deny.fn.Load()
	if p == nil {
		return func(string, Access) string { return "" }
	}
	d := (*p)()
	if d == nil {
		return func(string, Access) string { return "" }
	}
	return func(abs string, access Access) string {
		rel, ok := under(w.root, abs)
		if !ok || rel == "." {
			return ""
		}
		return d(filepath.ToSlash(rel), access)
	}
}

// HiddenReason is what a refused path's result says: hidden by the user's
// policy, and the rule's words (never the content, never a hint of it).
func HiddenReason(why string) string {
	return "hidden by the user's policy: " + why
}

// ResolveForPlan resolves path as Resolve does but does not consult the
// user's deny predicate: the plan stage uses it to name what a call would
// read, so the gate can refuse it with the rule. What it returns is never
// opened; the executor's Resolve refuses a denied path again.
func (w *Workspace) ResolveForPlan(path string, access Access) (string, error) {
	return w.resolve(path, access, nil, false)
}

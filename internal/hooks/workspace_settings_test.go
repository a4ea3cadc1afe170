package hooks

import (
	"context"
	"strings"
	"testing"

	"gatehouse/internal/trust"
)

// A trusted workspace's hook reports its source as the workspace's on the
// card, and one turned off in Settings (by the id Settings lists it under)
// does not run; the workspace's own list is left as it is.
func TestWorkspaceHookReportsItsSourceAndCanBeTurnedOff(t *testing.T) {
	ws, store := workspaceWithHooks(t)
	c, _ := store.Waiting(ws, trust.KindHooks)
	store.TrustShown(ws, trust.KindHooks, c.Hash)
	w := &Workspace{Root: ws, Trust: store}
	r := &Runner{ProjectDir: ws, Workspace: w.Hooks, Confine: plainLaunch}
	o := r.Run(context.Background(), SessionStart, Input{Source: "startup"}, nil)
	if len(o.Ran) != 1 || o.Reports()[0].Source != ScopeWorkspace {
		t.Fatalf("ran %+v", o.Reports())
	}
	listed, err := Parse(c.Data[trust.HooksFile], "listed")
	if err != nil {
		t.Fatal(err)
	}
	var off []string
	for _, h := range listed {
		h.Scope = ScopeWorkspace // as Settings lists it
		off = append(off, h.ID())
	}
	before := ranLog(ws)
	r.Workspace = func() []Hook { return Disable(w.Hooks(), off) }
	if o := r.Run(context.Background(), SessionStart, Input{Source: "startup"}, nil); len(o.Ran) != 0 || ranLog(ws) != before {
		t.Fatalf("a workspace hook turned off ran: %+v", o.Ran)
	}
	if hs := w.Hooks(); len(hs) == 0 || hs[0].Disabled || strings.Contains(hs[0].Source, "listed") {
		t.Errorf("turning off changed the workspace's own list: %+v", hs)
	}
}

package mcp

import "testing"

// A tab is offered the resources and prompts of its own workspace's
// servers: a folder not open has none (a workspace's own servers never
// reach another's tabs).
func TestResourcesComeFromTheTabsWorkspace(t *testing.T) {
	h := NewHost(HostOptions{ConfigDir: t.TempDir()})
	t.Cleanup(h.Close)
	a, b := t.TempDir(), t.TempDir()
	if err := h.Open(a); err != nil {
		t.Fatal(err)
	}
	if h.managerOf(a) == nil || h.managerOf(b) != nil {
		t.Fatal("managers by workspace")
	}
	if r := h.Resources(b); r != nil {
		t.Fatalf("another workspace's resources: %+v", r)
	}
	if p, _ := h.Prompts(b); p != nil {
		t.Fatalf("another workspace's prompts: %+v", p)
	}
	if _, _, err := h.MentionText(t.Context(), b, ResourceMention("x", "demo://y"), nil); err != errNotServed {
		t.Fatalf("a mention from another workspace: %v", err)
	}
}

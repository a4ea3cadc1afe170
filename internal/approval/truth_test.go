//go:build linux

package approval_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/protocol"
)

// TestRequestTellsTheWholeTruth: the approval.requested the page receives
// names the paths a command reads outside, its destructive subcommand behind
// global options, where a file really is and that it is replaced whole; a
// destructive line creates no rule.
func TestRequestTellsTheWholeTruth(t *testing.T) {
	h := newHarness(t, approval.Safe, map[string]string{"src/a.txt": "old\n"})
	if err := os.Symlink("src", filepath.Join(h.root, "link")); err != nil {
		t.Fatal(err)
	}
	h.answerAll(protocol.Decision{Kind: protocol.DecisionReject})
	ctx := context.Background()
	h.run(ctx, "bash", `{"action":"exec","command":"cat ~/.ssh/id_rsa && git -C . push --force"}`)
	h.run(ctx, "write_file", `{"path":"link/a.txt","content":"new\n"}`)
	reqs := h.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	segs := reqs[0].Preview.Command.Segments
	if len(segs) != 2 || !slices.Equal(segs[0].ReadsOutside, []string{"~/.ssh/id_rsa"}) ||
		segs[1].Destructive != "rewrites history on the remote" || !segs[1].Network {
		t.Errorf("segments %+v", segs)
	}
	if reqs[0].Rule != nil {
		t.Errorf("a line that reads outside and force-pushes proposes a rule: %+v", reqs[0].Rule)
	}
	f := reqs[1].Preview.Files[0]
	if f.Path != "link/a.txt" || f.ResolvedPath != "src/a.txt" || !f.Replaces || !strings.Contains(f.Diff, "-old\n+new\n") {
		t.Errorf("file preview %+v", f)
	}
}

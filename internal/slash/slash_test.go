package slash

import (
	"errors"
	"strings"
	"testing"
)

func sends(text string) func(string) (string, error) {
	return func(args string) (string, error) { return text + args, nil }
}

// A name offered by several sources runs the built-in, else the user's,
// else the workspace's, else a skill's, else an MCP prompt's, whatever
// order they registered in; every loser is listed after the winners,
// marked with the winner's source, and never runs.
func TestPrecedenceAndShadowed(t *testing.T) {
	r := New()
	r.Register(Prompt, func() ([]Command, []error) {
		return []Command{{Name: "review", Source: "server a", Expand: sends("mcp ")}, {Name: "fix", Source: "server a", Expand: sends("mcp fix ")}}, nil
	})
	r.Register(Skill, func() ([]Command, []error) {
		return []Command{{Name: "review", Source: "skills/review", Expand: sends("skill ")}, {Name: "fix", Source: "skills/fix", Expand: sends("skill fix ")}}, nil
	})
	r.Register(Workspace, func() ([]Command, []error) {
		return []Command{{Name: "review", Source: ".gatehouse/commands/review.md", Expand: sends("ws ")}}, nil
	})
	r.Register(User, func() ([]Command, []error) {
		return []Command{{Name: "review", Source: "commands/review.md", Expand: sends("user ")}, {Name: "plan", Source: "commands/plan.md", Expand: sends("mine")}}, nil
	})
	es, errs := r.List()
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	var got []string
	for _, e := range es {
		got = append(got, string(e.Origin)+":"+e.Name+">"+e.ShadowedBy)
	}
	want := "built-in:clear> built-in:compact> built-in:experimental> built-in:plan> built-in:undo> user:review> skill:fix> " +
		"mcp-prompt:fix>skills/fix user:plan>built-in workspace:review>commands/review.md skill:review>commands/review.md mcp-prompt:review>commands/review.md"
	if strings.Join(got, " ") != want {
		t.Fatalf("listed\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
	if m, err := r.Message("review", "a.go"); err != nil || m != "user a.go" {
		t.Errorf("/review sent %q %v", m, err)
	}
	if m, err := r.Message("fix", "b"); err != nil || m != "skill fix b" {
		t.Errorf("/fix sent %q %v", m, err)
	}
	if _, err := r.Message("plan", ""); !errors.Is(err, ErrBuiltin) {
		t.Errorf("/plan as a message: %v", err)
	}
	if _, err := r.Message("nope", ""); err == nil || !strings.Contains(err.Error(), "no command /nope") {
		t.Errorf("unknown: %v", err)
	}
}

// An entry that cannot be typed, or that sends nothing, is left out with an
// error naming its source; the source's other entries stay.
func TestBadEntriesReported(t *testing.T) {
	r := New()
	r.Register(Skill, func() ([]Command, []error) {
		return []Command{{Name: "Bad Name", Source: "s1", Expand: sends("")}, {Name: "empty", Source: "s2"}, {Name: "ok", Source: "s3", Expand: sends("")}},
			[]error{errors.New("s4: unreadable")}
	})
	es, errs := r.List()
	if len(errs) != 3 || !strings.Contains(errs[1].Error(), "s1") || !strings.Contains(errs[2].Error(), "s2") {
		t.Errorf("errors %v", errs)
	}
	if _, ok := r.Resolve("ok"); !ok || len(es) != len(Builtins())+1 {
		t.Errorf("entries %+v", es)
	}
}

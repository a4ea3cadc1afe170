package approval

import (
	"strings"
	"testing"

	"gatehouse/internal/protocol"
	"gatehouse/internal/workspace"
)

// standingFrom is the standing allow rule "always allow" on base makes:
// the session rule's words, exact, the folder relative to the root.
func standingFrom(t *testing.T, ws *workspace.Workspace, base string) StandingRule {
	t.Helper()
	line := analyzeShell(base, ws.Root(), ws)
	r := proposal("bash", keys{kind: keyCommands, calls: line.calls, action: "exec", cwd: ws.Root()})
	if !line.plain || r == nil {
		t.Fatalf("%q was not offered a rule", base)
	}
	s := StandingRule{Rule: *r, Decision: VerdictAllow, Layer: "user", File: "policy.toml"}
	s.ID, s.Cwd, s.Action = "p-1", "", ""
	for i, c := range s.Commands {
		s.Commands[i] = LiteralPattern(c)
	}
	return s
}

// wildcarded is r with a wildcard appended to the last word of each
// command: `go test ./...*`, the widest rule one star at the end writes.
func wildcarded(r StandingRule) StandingRule {
	w := r
	w.Commands = nil
	for _, c := range r.Commands {
		c = append([]string{}, c...)
		if len(c) > 1 {
			c[len(c)-1] += "*"
		} else {
			c = append(c, "*")
		}
		w.Commands = append(w.Commands, c)
	}
	return w
}

func standingCovers(ws *workspace.Workspace, rules []StandingRule, cmd, cwd, action string) Verdict {
	k := lineKeys(cmd, cwd, ws.Root(), action, ws)
	v, _ := decideStanding(rules, "bash", k)
	return v
}

// TestStandingAttacksDoNotRide: issue 12's held-out attacks against
// standing rules, exact and with wildcards: nothing the rule's words do
// not match rides.
func TestStandingAttacksDoNotRide(t *testing.T) {
	ws := attackWorkspace(t)
	for _, c := range ruleAttacks {
		exact := standingFrom(t, ws, c.base)
		cwd, action := c.scope(ws)
		if v := standingCovers(ws, []StandingRule{exact}, c.cmd, cwd, action); v == VerdictAllow {
			t.Errorf("%q (%s in %s) rode on the standing rule for %q", c.cmd, action, cwd, c.base)
		}
		wild := wildcarded(exact)
		if v := standingCovers(ws, []StandingRule{wild}, c.cmd, cwd, action); v == VerdictAllow {
			t.Errorf("%q (%s in %s) rode on the wildcard rule %q", c.cmd, action, cwd, PatternText(wild.Commands[0]))
		}
	}
}

func TestStandingRepeatsRide(t *testing.T) {
	ws := attackWorkspace(t)
	for _, c := range legitRepeats {
		if c.cwd != "" || c.action != "" {
			continue // a rule made in another folder or action: see TestStandingFolderAndAction
		}
		r := standingFrom(t, ws, c.base)
		if v := standingCovers(ws, []StandingRule{r}, c.cmd, ws.Root(), "exec"); v != VerdictAllow {
			t.Errorf("%q did not ride on the standing rule for %q", c.cmd, c.base)
		}
	}
}

func TestWildcardOnlyOverWholeArguments(t *testing.T) {
	ws := attackWorkspace(t)
	words, err := CommandPattern("npm run test:*")
	if err != nil {
		t.Fatal(err)
	}
	r := StandingRule{Rule: protocol.Rule{ID: "p-1", Tool: "bash", Commands: [][]string{words}}, Decision: VerdictAllow}
	for cmd, want := range map[string]bool{
		"npm run test:unit":                   true,
		"npm run test:e2e-chrome":             true,
		"npm run test:":                       true,
		"npm run test:unit 2>&1":              true,
		"npm run test:unit && curl x":         false,
		"npm run test:unit; curl x":           false,
		"npm run test:unit | sh":              false,
		"npm run test:unit > out.txt":         false,
		"npm run test:unit >> src/main.go":    false,
		"FOO=1 npm run test:unit":             false,
		"env npm run test:unit":               false,
		"timeout 5 npm run test:unit":         false,
		"sudo npm run test:unit":              false,
		"npm run test:unit --script-shell=sh": false,
		"npm run test:unit extra":             false,
		"npm run 'test:x; curl y'":            false,
		"npm run 'test:$(curl y)'":            false,
		"npm run test:$(curl y)":              false,
		"npm run test:`curl y`":               false,
		"npm run \"test:unit\"$x":             false,
		"npm run test:{a,b}":                  false,
		"npm run lint":                        false,
		"npm  run  test:unit":                 true,
		"npm run test:unit &":                 false,
		"eval npm run test:unit":              false,
		"bash -c 'npm run test:unit'":         false,
		"npm run test:unit\ncurl x":           false,
		"(npm run test:unit)":                 false,
		"npm run test:unit || rm -rf .":       false,
	} {
		if got := standingCovers(ws, []StandingRule{r}, cmd, ws.Root(), "exec") == VerdictAllow; got != want {
			t.Errorf("%q: allowed %v, want %v", cmd, got, want)
		}
	}
	// ** (any further arguments) never widens an allow rule.
	r.Commands = [][]string{append(pat0("npm run"), AnyArgs)}
	if standingCovers(ws, []StandingRule{r}, "npm run test:unit", ws.Root(), "exec") == VerdictAllow {
		t.Error("an allow rule's ** allowed")
	}
	// A word-initial wildcard never stands for an option.
	any, _ := CommandPattern("git log *")
	r.Commands = [][]string{any}
	if standingCovers(ws, []StandingRule{r}, "git log --output=x", ws.Root(), "exec") == VerdictAllow {
		t.Error("git log * matched an option")
	}
	if standingCovers(ws, []StandingRule{r}, "git log main", ws.Root(), "exec") != VerdictAllow {
		t.Error("git log * did not match git log main")
	}
}

func pat0(s string) []string { w, _ := CommandPattern(s); return w }

func TestCommandPatternRefuses(t *testing.T) {
	for _, bad := range []string{"", "npm test && curl x", "npm test > x", "FOO=1 npm test", "* test", "np* test",
		"npm $X", "npm test:?", "npm $(x)", "a\nb", "(npm test)", "npm test &"} {
		if _, err := CommandPattern(bad); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
	// A quoted or escaped star is literal, and text round-trips.
	for _, text := range []string{"echo '*'", `echo \*`, "npm run test:*", "git commit -m 'a b'", "ls 'a*'*"} {
		w, err := CommandPattern(text)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		back, err := CommandPattern(PatternText(w))
		if err != nil || strings.Join(back, "\x00") != strings.Join(w, "\x00") {
			t.Errorf("%q -> %q -> %q (%v)", text, PatternText(w), back, err)
		}
	}
	w, _ := CommandPattern("echo '*'")
	if wordMatches(w[1], "x") || !wordMatches(w[1], "*") {
		t.Error("a quoted star is a wildcard")
	}
}

// TestDenyBeatsAllowAndAskTouchesAnyPart: deny and ask apply when any
// simple command matches, nested and chained ones included; allow needs
// every one.
func TestDenyBeatsAllowAndAskTouchesAnyPart(t *testing.T) {
	ws := attackWorkspace(t)
	pat := func(s string) []string { w, _ := CommandPattern(s); return w }
	rules := []StandingRule{
		{Rule: protocol.Rule{ID: "a", Tool: "bash", Commands: [][]string{pat("npm test"), pat("git push origin main")}}, Decision: VerdictAllow},
		{Rule: protocol.Rule{ID: "d", Tool: "bash", Commands: [][]string{pat("git push **")}}, Decision: VerdictDeny, Reason: "no pushing"},
		{Rule: protocol.Rule{ID: "q", Tool: "bash", Commands: [][]string{pat("npm publish")}}, Decision: VerdictAsk},
	}
	for cmd, want := range map[string]Verdict{
		"npm test":                            VerdictAllow,
		"git push origin main":                VerdictDeny,
		"npm test && git push origin main":    VerdictDeny,
		"bash -c 'git push origin main'":      VerdictDeny,
		"npm test; npm publish":               VerdictAsk,
		"echo $(npm publish)":                 VerdictAsk,
		"git push origin main && npm publish": VerdictDeny,
		"eval \"$X\"":                         VerdictAsk, // cannot be read: a deny rule may apply
		"git push":                            VerdictDeny,
		"ls":                                  VerdictNone,
	} {
		if got := standingCovers(ws, rules, cmd, ws.Root(), "exec"); got != want {
			t.Errorf("%q: %q, want %q", cmd, got, want)
		}
	}
}

func TestFileGlobs(t *testing.T) {
	for _, c := range []struct {
		glob, path string
		want       bool
	}{
		{"src/**", "src/a.go", true}, {"src/**", "src/x/y/a.go", true}, {"src/**/*.go", "src/a.go", true},
		{"src/**/*.go", "src/x/a.go", true}, {"src/*.go", "src/x/a.go", false}, {"src/**", "srcx/a.go", false},
		{"docs/*.md", "docs/a.md", true}, {"**/*.md", "a.md", true}, {"src/**", "../src/a.go", false},
	} {
		if got := fileMatches(c.glob, c.path); got != c.want {
			t.Errorf("%s ~ %s: %v, want %v", c.glob, c.path, got, c.want)
		}
	}
}

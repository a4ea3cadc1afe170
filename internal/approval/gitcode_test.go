package approval

import (
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// gitCodeLines set, each in its own way, a git setting or variable that
// makes a later git command run code.
var gitCodeLines = []string{
	"git config core.fsmonitor 'touch /tmp/p'",
	"git config core.hooksPath /tmp/hooks",
	"git config core.sshCommand 'sh -c evil'",
	"git config core.editor evil",
	"git config core.pager 'sh -c evil'",
	"git config diff.pdf.textconv evil",
	"git config filter.lfs.smudge evil",
	"git config filter.x.process evil",
	"git config alias.st '!touch /tmp/p'",
	"git config alias.l '-c core.pager=evil log'",
	"git config include.path /tmp/evil.cfg",
	"git config includeIf.gitdir:/.path /tmp/evil.cfg",
	"git config set core.fsmonitor evil",
	"git config --local --add core.fsmonitor evil",
	"git config --replace-all core.hooksPath x",
	"git config --global core.pager evil",
	"git config -f .gitmodules filter.a.clean evil",
	"git config --edit",
	"git -c core.fsmonitor=evil status",
	"git -c alias.x=!evil x",
	"git --config-env=core.pager=EVIL log",
	"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=evil git log",
	"GIT_CONFIG_PARAMETERS=\"'core.pager'='evil'\" git log",
	"env GIT_CONFIG_PARAMETERS=x git log",
	"export GIT_CONFIG_COUNT=1",
	"GIT_SSH_COMMAND=evil git fetch",
}

// TestGitCodePathsAreFlaggedAndNeverRide: every line of gitCodeLines gets
// the "makes git run code" warning (and, writing the repository's own
// config, the writes-into-.git one) and is offered no rule.
func TestGitCodePathsAreFlaggedAndNeverRide(t *testing.T) {
	ws := attackWorkspace(t)
	for _, cmd := range gitCodeLines {
		line := analyzeShell(cmd, ws.Root(), ws)
		if line.plain {
			t.Errorf("%q is offered a rule", cmd)
		}
		var code string
		var writesGit bool
		var warns []string
		for _, s := range line.segments {
			if s.GitCode != "" {
				code = s.GitCode
			}
			writesGit = writesGit || s.WritesGit
			warns = append(warns, s.Warnings...)
		}
		if code == "" || !slices.ContainsFunc(warns, func(w string) bool { return strings.HasPrefix(w, "makes git run code") }) {
			t.Errorf("%q: no makes-git-run-code warning (%q)", cmd, warns)
		}
		local := strings.HasPrefix(cmd, "git config") && !strings.Contains(cmd, "--global") && !strings.Contains(cmd, " -f ")
		if local && !writesGit {
			t.Errorf("%q writes .git/config yet is not flagged as a write into .git", cmd)
		}
	}
}

// TestHarmlessGitConfigStaysPlain: reading config, or setting a key that
// runs nothing, is not flagged as making git run code.
func TestHarmlessGitConfigStaysPlain(t *testing.T) {
	ws := attackWorkspace(t)
	for _, cmd := range []string{"git config user.name", "git config --get core.pager", "git config --list",
		"git config alias.st status", "git -c color.ui=never log", "git config --unset core.fsmonitor"} {
		for _, s := range analyzeShell(cmd, ws.Root(), ws).segments {
			if s.GitCode != "" {
				t.Errorf("%q flagged as making git run code (%s)", cmd, s.GitCode)
			}
		}
	}
}

// TestGlobsThatNameGitAreGitWrites: a glob or quoting that can name .git
// counts as .git, not as "outside the workspace".
func TestGlobsThatNameGitAreGitWrites(t *testing.T) {
	ws := attackWorkspace(t)
	for _, cmd := range []string{"cp x .gi[t]/config", "cp x .g?t/config", `cp x .gi"t"/config`, `cp x ".git"/hooks/pre-commit`,
		"cp x .gi*/config", "echo x > .g?t/config", "echo x > .gi[t]/hooks/post-checkout", "tee .G[I]T/config < x",
		"sed -i s/a/b/ .g?t/config", "mv x .{git,foo}/config", `cp x .g\it/config`} {
		line := analyzeShell(cmd, ws.Root(), ws)
		if line.plain || len(line.segments) == 0 {
			t.Errorf("%q is plain", cmd)
			continue
		}
		s := line.segments[0]
		if !s.WritesGit {
			t.Errorf("%q: not flagged as a write into .git (%+v)", cmd, s)
		}
		if slices.Contains(s.Warnings, "writes outside the workspace") {
			t.Errorf("%q: labelled a write outside the workspace", cmd)
		}
	}
	for _, cmd := range []string{"cp x *.txt", "cp x src/*", "cp x .github/*"} {
		if s := analyzeShell(cmd, ws.Root(), ws).segments[0]; s.WritesGit {
			t.Errorf("%q flagged as a write into .git", cmd)
		}
	}
}

// TestRuleTextRoundTrips: the rule's text quotes each word as the shell
// would, and parses back to exactly the words the rule matches.
func TestRuleTextRoundTrips(t *testing.T) {
	for _, words := range [][]string{
		{"git", "config", "core.fsmonitor", "touch /tmp/x"},
		{"echo", "it's", `"quoted"`, "$HOME", "a\\b", "*", "~", "x;y", ""},
		{"printf", "tab\there", "new\nline", "\x1b[2K"},
		{"ls", "-la", "src"},
	} {
		text := ShellWords(words)
		f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
		if err != nil || len(f.Stmts) != 1 {
			t.Errorf("%q: %v", text, err)
			continue
		}
		call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
		if !ok {
			t.Errorf("%q is not one simple command", text)
			continue
		}
		var got []string
		for _, w := range call.Args {
			v, ok := literalOrDollar(w)
			if !ok || expands(w) {
				t.Errorf("%q: word %q expands", text, w.Lit())
			}
			got = append(got, v)
		}
		if !slices.Equal(got, words) {
			t.Errorf("%q parses to %q, want %q", text, got, words)
		}
	}
	r := proposal("bash", keys{kind: keyCommands, calls: [][]string{{"git", "config", "user.name", "A B"}}, action: "exec", cwd: "/w"})
	if !strings.Contains(r.Summary, "`git config user.name 'A B'`") {
		t.Errorf("rule summary %q does not quote the words", r.Summary)
	}
}

// literalOrDollar is literal, also reading $'…' (how control characters
// are quoted).
func literalOrDollar(w *syntax.Word) (string, bool) {
	if len(w.Parts) == 1 {
		if q, ok := w.Parts[0].(*syntax.SglQuoted); ok && q.Dollar {
			return unescapeDollar(q.Value), true
		}
	}
	return literal(w)
}

func unescapeDollar(s string) string {
	r := strings.NewReplacer(`\t`, "\t", `\n`, "\n", `\x1b`, "\x1b", `\e`, "\x1b", `\'`, "'", `\\`, `\`)
	return r.Replace(s)
}

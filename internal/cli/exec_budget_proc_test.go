//go:build unix

package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"gatehouse/internal/budget"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/sessionhost"
)

// execProcess starts `gatehouse exec args` as a process of its own (this
// test binary, see TestExecBudgetProcess) in env's folders.
func execProcess(t *testing.T, env sessionhost.Env, stdout *bytes.Buffer, args ...string) *exec.Cmd {
	t.Helper()
	a, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^TestExecBudgetProcess$")
	cmd.Env = append(os.Environ(), "GATEHOUSE_TEST_EXEC_ARGS="+string(a),
		"GATEHOUSE_TEST_EXEC_CONFIG="+env.ConfigDir, "GATEHOUSE_TEST_EXEC_DATA="+env.DataDir)
	cmd.Stdout = stdout
	return cmd
}

// TestExecBudgetProcess is the exec process the tests below start.
func TestExecBudgetProcess(t *testing.T) {
	raw := os.Getenv("GATEHOUSE_TEST_EXEC_ARGS")
	if raw == "" {
		t.Skip("started by the budget process tests")
	}
	var args []string
	json.Unmarshal([]byte(raw), &args)
	env := sessionhost.Env{ConfigDir: os.Getenv("GATEHOUSE_TEST_EXEC_CONFIG"), DataDir: os.Getenv("GATEHOUSE_TEST_EXEC_DATA"),
		LookupEnv: func(string) (string, bool) { return "", false }}
	os.Exit(Exec(context.Background(), args, env, strings.NewReader(""), os.Stdout, os.Stderr))
}

func dayTokens(t *testing.T, env sessionhost.Env) int64 {
	t.Helper()
	tok, _, err := budget.OpenLedger(budget.LedgerDir(env.DataDir)).Today()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// Two exec runs at once, each its own process, spend against one day's
// ledger: the second stops when the sum crosses the daily token limit,
// while the first, already past its last check, completes.
func TestConcurrentExecRunsShareTheDaysLedger(t *testing.T) {
	env := testEnv(t, nil)
	os.MkdirAll(env.ConfigDir, 0o700)
	os.WriteFile(filepath.Join(env.ConfigDir, "settings.json"), []byte(`{"approvalMode":"safe","theme":"system","budget":{"dayTokens":1000}}`), 0o644)
	first := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: listCall("a1"), Usage: usage(590, 10)},
		{Text: llmtest.Text("done", " slowly"), Usage: usage(5, 5), DelayMs: 400},
	}})
	second := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: listCall("b1"), Usage: usage(490, 10)},
	}})
	args := func(url string) []string {
		return []string{"--workspace", t.TempDir(), "--prompt", "list", "--approval", "auto", "--base-url", url, "--model", "fake-model", "--json"}
	}
	var out1, out2 bytes.Buffer
	p1 := execProcess(t, env, &out1, args(first.URL)...)
	if err := p1.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for dayTokens(t, env) < 600 {
		if time.Now().After(deadline) {
			p1.Process.Kill()
			t.Fatal("the first run never recorded its first request")
		}
		time.Sleep(10 * time.Millisecond)
	}
	p2 := execProcess(t, env, &out2, args(second.URL)...)
	err2 := p2.Run()
	err1 := p1.Wait()
	if code := exitOf(err2); code != ExitBudgetExhausted {
		t.Fatalf("second run exit %d, want %d:\n%s", code, ExitBudgetExhausted, out2.String())
	}
	if p := lastStop(t, out2.String()); p.Budget == nil || p.Budget.Limit != protocol.LimitDayTokens || p.Budget.Used != 1100 {
		t.Fatalf("second run stopped with %+v", p.Budget)
	}
	if code := exitOf(err1); code != ExitCompleted {
		t.Fatalf("first run exit %d:\n%s", code, out1.String())
	}
	if got := dayTokens(t, env); got != 1110 {
		t.Fatalf("the day's ledger holds %d tokens, want 1110", got)
	}
}

func exitOf(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// A run SIGKILLed while its second request streams keeps the first
// request's spend in the day's ledger.
func TestSIGKILLMidRunLosesNoRecordedSpend(t *testing.T) {
	env := testEnv(t, nil)
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: listCall("k1"), Usage: usage(700, 20)},
		{Text: llmtest.Text("never", "ends"), Hang: true},
	}})
	var out bytes.Buffer
	pr, pw, _ := os.Pipe()
	p := execProcess(t, env, &out, "--workspace", t.TempDir(), "--prompt", "list", "--approval", "auto",
		"--base-url", srv.URL, "--model", "fake-model", "--json")
	p.Stdout = pw
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		// The spend is recorded before the event that reports it.
		if strings.Contains(sc.Text(), `"type":"budget.updated"`) {
			break
		}
	}
	// Killed while the second request streams.
	for deadline := time.Now().Add(20 * time.Second); srv.Remaining() > 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	p.Process.Signal(syscall.SIGKILL)
	p.Wait()
	pr.Close()
	if got := dayTokens(t, env); got != 720 {
		t.Fatalf("after SIGKILL the day's ledger holds %d tokens, want 720", got)
	}
}

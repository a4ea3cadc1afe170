package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/budget"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
)

func listCall(id string) []llmtest.ToolCall {
	return []llmtest.ToolCall{{ID: id, Name: "list_dir", Arguments: llmtest.Text(`{"path":"."}`)}}
}

func usage(in, out int64) *llmtest.Usage {
	return &llmtest.Usage{PromptTokens: in, CompletionTokens: out}
}

// lastStop is the run's own turn.stopped (its last line).
func lastStop(t *testing.T, stdout string) protocol.TurnStoppedPayload {
	t.Helper()
	evs := parseEvents(t, stdout)
	p, ok := evs[len(evs)-1].Payload.(protocol.TurnStoppedPayload)
	if !ok {
		t.Fatalf("last event is %s", evs[len(evs)-1].Type)
	}
	return p
}

// exec --max-tokens N stops the run before the request that would go past
// N, with exit 6 and turn.stopped.reason budget_exhausted naming the
// limit; at 80% one line says so on stderr.
func TestExecMaxTokensStopsTheRun(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: listCall("c1"), Usage: usage(800, 50)},
		{ToolCalls: listCall("c2"), Usage: usage(200, 10)},
	}})
	env := testEnv(t, nil)
	r := runExec(t, context.Background(), env, "--workspace", t.TempDir(), "--prompt", "list", "--approval", "auto",
		"--base-url", srv.URL, "--model", "fake-model", "--json", "--max-tokens", "1000")
	if r.code != ExitBudgetExhausted {
		t.Fatalf("exit %d, want %d; stderr:\n%s", r.code, ExitBudgetExhausted, r.stderr)
	}
	p := lastStop(t, r.stdout)
	if p.Reason != protocol.StopBudgetExhausted || p.Budget == nil || p.Budget.Limit != protocol.LimitSessionTokens ||
		p.Budget.Used != 1060 || p.Budget.Max != 1000 {
		t.Fatalf("turn.stopped %+v budget %+v", p, p.Budget)
	}
	if n := strings.Count(r.stderr, "80% used"); n != 1 || !strings.Contains(r.stderr, "token limit") {
		t.Fatalf("stderr has %d warnings:\n%s", n, r.stderr)
	}
}

// A price saved in the settings for the scripted model prices each
// request; a subagent's requests count against the session's spending
// limit, and the parent stops before its next request.
func TestExecCostLimitCountsTheSubagent(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "call_1", Name: "delegate_lister", Arguments: llmtest.Text(`{"task":"list"}`)}}, Usage: usage(100, 10)},
		{Text: llmtest.Text("one file"), Usage: usage(900, 10)},
	}})
	env := testEnv(t, nil)
	os.MkdirAll(filepath.Join(env.ConfigDir, "agents"), 0o755)
	os.WriteFile(filepath.Join(env.ConfigDir, "agents", "lister.md"), []byte("---\nname: lister\ndescription: lists files\ntools: list_dir\n---\nList."), 0o644)
	set := map[string]any{"approvalMode": "safe", "theme": "system",
		"prices": map[string]any{"fake-model": map[string]float64{"inputPerMTok": 1000, "outputPerMTok": 1000}},
		"budget": map[string]any{"sessionCost": 1.0}}
	b, _ := json.Marshal(set)
	os.WriteFile(filepath.Join(env.ConfigDir, "settings.json"), b, 0o644)
	r := runExec(t, context.Background(), env, "--workspace", t.TempDir(), "--prompt", "delegate", "--approval", "auto",
		"--base-url", srv.URL, "--model", "fake-model", "--json")
	if r.code != ExitBudgetExhausted {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	p := lastStop(t, r.stdout)
	if p.Budget == nil || p.Budget.Limit != protocol.LimitSessionCost || p.Budget.Used < 1.02 || p.Budget.Used > 1.03 {
		t.Fatalf("budget stop %+v", p.Budget)
	}
	// The parent's own request cost $0.11; the child's turn carries its own.
	if p.Cost == nil || *p.Cost < 0.1099 || *p.Cost > 0.1101 {
		t.Fatalf("the parent's turn cost %v", p.Cost)
	}
	var childCost float64
	for _, e := range parseEvents(t, r.stdout) {
		if c, ok := e.Payload.(protocol.TurnStoppedPayload); ok && e.ParentCallID != "" && c.Cost != nil {
			childCost = *c.Cost
		}
	}
	if childCost < 0.9099 || childCost > 0.9101 {
		t.Fatalf("the child's turn cost %v, want $0.91", childCost)
	}
	tok, cost, _ := budget.OpenLedger(budget.LedgerDir(env.DataDir)).Today()
	if tok != 1020 || cost < 1.0199 || cost > 1.0201 {
		t.Fatalf("the day's ledger holds %d tokens, $%v", tok, cost)
	}
}

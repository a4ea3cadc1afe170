package tsgen

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gatehouse/internal/protocol"
)

// TestCheckedInFileIsCurrent fails when protocol.gen.ts or bound.gen.ts does
// not match the Go types and bound methods: run `make protocol-ts` and commit
// the result.
func TestCheckedInFileIsCurrent(t *testing.T) {
	for out, gen := range map[string]func() ([]byte, error){DefaultOutput: Generate, BoundOutput: GenerateBound} {
		want, err := gen()
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join("..", "..", "..", filepath.FromSlash(out)))
		if err != nil {
			t.Fatalf("%v (run make protocol-ts)", err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s is stale: run make protocol-ts and commit it", out)
		}
	}
}

// TestBoundCoversEveryMethod: each method Wails binds on each service gets a
// typed call with its parameter and result types, and of two packages' types
// of one name, the later is qualified by its package rather than merged.
func TestBoundCoversEveryMethod(t *testing.T) {
	src, err := GenerateBound()
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	for _, svc := range bound {
		pkg, name, iface := serviceName(svc)
		for _, m := range boundMethods(svc) {
			call := "window.go." + pkg + "." + name + "." + m.Name + "("
			if !strings.Contains(s, call) {
				t.Errorf("no call %s", call)
			}
		}
		if !strings.Contains(s, "export const "+name+": "+iface+" = {") {
			t.Errorf("no const %s", name)
		}
	}
	for _, want := range []string{
		"  Snapshot(): Promise<Snapshot>;\n",
		"  SaveSettings(arg1: SettingsInput): Promise<SettingsView>;\n",
		"  ListSessions(): Promise<SessionInfo[] | null>;\n",
		"  AgentsPending(): Promise<Pending | null>;\n",
		"  Cancel(): Promise<void>;\n",
		"  GitCommit(arg1: string, arg2: boolean): Promise<Commit>;\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("bound.gen.ts lacks %q", want)
		}
	}

	g := newGenerator()
	g.ref(reflect.TypeOf(protocol.Snapshot{}))
	if g.err != nil {
		t.Fatal(g.err)
	}
	type Snapshot struct{ X int }
	if got := g.ref(reflect.TypeOf(Snapshot{})); got != "TsgenSnapshot" || g.err != nil {
		t.Fatalf("a second Go type named Snapshot is %q (err %v), want TsgenSnapshot", got, g.err)
	}
	if got := g.ref(reflect.TypeOf(protocol.Snapshot{})); got != "Snapshot" {
		t.Fatalf("protocol.Snapshot is %q once another Snapshot is declared", got)
	}
}

func TestDeterministic(t *testing.T) {
	a, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		b, _ := Generate()
		if !bytes.Equal(a, b) {
			t.Fatal("two runs differ")
		}
	}
}

func TestOutputShape(t *testing.T) {
	src, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	for _, p := range protocol.Payloads() {
		if !strings.Contains(s, `EventOf<"`+string(p.Type)+`", `) {
			t.Errorf("no union variant for %s", p.Type)
		}
	}
	for _, want := range []string{
		`export type StopReason = "completed" | "blocked_by_approval" | "cancelled" | "max_steps" | "error" | "budget_exhausted";`,
		`export type DecisionKind = "once" | "session" | "reject" | "partial" | "always";`,
		"export interface TurnStoppedPayload {\n  reason: StopReason;\n  error?: string;\n  errorKind?: string;\n  usage: Usage;\n  model?: string;\n  context?: ContextUse;\n  blocked?: Blocked;\n  plan?: ProposedPlan;\n  cost?: number;\n  budget?: BudgetStop;\n}",
		// an embedded struct is a base: ProcessInfo's fields, PolicyRule's own
		"export type ProcessStartedPayload = ProcessInfo;\n",
		"export interface ProcessInfo {\n  processId: string;",
		"export interface PolicyRule extends StandingRule {\n  uses: Use;\n",
		"  exitCode?: number;\n",
		"  rule?: Rule;\n",
		"  args: unknown;\n",
		"  paths: string[] | null;\n",
		"  files?: string[];\n",
		"  seq: number;\n  sessionId: string;\n  turnId: string;\n  type: T;\n  payload: P;\n",
		`export const WAILS_EVENT_NAME = "gatehouse:event";`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

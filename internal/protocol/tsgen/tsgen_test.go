package tsgen

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/protocol"
)

// TestCheckedInFileIsCurrent fails when protocol.gen.ts does not match the Go
// types: run `make protocol-ts` and commit the result.
func TestCheckedInFileIsCurrent(t *testing.T) {
	want, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "..", "..", filepath.FromSlash(DefaultOutput))
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run make protocol-ts)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: run make protocol-ts and commit it", DefaultOutput)
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
		`export type StopReason = "completed" | "blocked_by_approval" | "cancelled" | "max_steps" | "error";`,
		`export type DecisionKind = "once" | "session" | "reject" | "partial" | "always";`,
		"export interface TurnStoppedPayload {\n  reason: StopReason;\n  error?: string;\n  errorKind?: string;\n  usage: Usage;\n  model?: string;\n  context?: ContextUse;\n  blocked?: Blocked;\n  plan?: ProposedPlan;\n}",
		// embedded ProcessInfo is flattened
		"export interface ProcessStartedPayload {\n  processId: string;",
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

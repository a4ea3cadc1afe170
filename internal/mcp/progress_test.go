package mcp

import (
	"context"
	"strings"
	"sync"
	"testing"

	"gatehouse/internal/tools"
)

// A long call's notifications/progress reach its session's card, tied to
// its call.
func TestProgressOfALongCallReachesItsCard(t *testing.T) {
	m := everything(t, Options{})
	type step struct {
		call            string
		progress, total float64
	}
	var mu sync.Mutex
	var got []step
	ctx := tools.WithOwner(context.Background(), tools.Owner{Session: "tab-a", Progress: func(ctx context.Context, p, total float64, _ string) {
		c, _ := tools.CallFrom(ctx)
		mu.Lock()
		got = append(got, step{c.ID, p, total})
		mu.Unlock()
	}})
	ctx = tools.WithCall(ctx, tools.Call{ID: "long-1"})
	out := text(t, runAsync(ctx, findTool(t, m, "mcp__everything__trigger-long-running-operation"), `{"duration":0.6,"steps":3}`))
	if !strings.Contains(out, "Long running operation completed") {
		t.Fatalf("result %s", out)
	}
	mu.Lock()
	defer mu.Unlock()
	// The server sends its last step just before the result; the SDK
	// handles notifications apart from responses, so that step may arrive
	// after the call ended, when the card already shows the result, and is
	// dropped. The steps before it arrive, in order, tied to the call.
	if len(got) < 2 || len(got) > 3 || got[0] != (step{"long-1", 1, 3}) {
		t.Fatalf("progress %+v", got)
	}
	for i, s := range got {
		if s != (step{"long-1", float64(i + 1), 3}) {
			t.Fatalf("progress %+v", got)
		}
	}
}

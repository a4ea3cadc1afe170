package session

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"gatehouse/internal/agent"
	"gatehouse/internal/events"
	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/proc"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
	"gatehouse/internal/tools/builtin"
	"gatehouse/internal/workspace"
)

// The crash child is this test binary run again with these variables set:
// it runs one turn the way the app does (agent → bus → State → log) until
// the parent kills it.
const (
	crashChildEnv = "GATEHOUSE_TEST_CRASH_CHILD"
	crashDataEnv  = "GATEHOUSE_TEST_CRASH_DATA"
	crashWSEnv    = "GATEHOUSE_TEST_CRASH_WS"
	crashURLEnv   = "GATEHOUSE_TEST_CRASH_URL"
)

func crashChild() int {
	fail := func(err error) int {
		fmt.Fprintln(os.Stderr, "crash child:", err)
		return 1
	}
	wsDir := os.Getenv(crashWSEnv)
	st := NewStore(os.Getenv(crashDataEnv))
	l, err := st.Create(wsDir, "crash-1")
	if err != nil {
		return fail(err)
	}
	// As a runtime session writes: through a queue, off the delivery.
	q := l.Queue()
	state := NewState("crash-1", nil, func(it protocol.TranscriptItem) {
		if err := q.AppendItem(it); err != nil {
			fmt.Fprintln(os.Stderr, "crash child: log:", err)
		}
	})
	bus := events.New(state, events.Options{})
	ws, err := workspace.New(wsDir, workspace.Options{ProtectedDirs: []string{}})
	if err != nil {
		return fail(err)
	}
	procs := proc.NewRegistry(proc.Options{})
	defer procs.Close()
	reg, err := builtin.Registry(ws, procs)
	if err != nil {
		return fail(err)
	}
	client, err := llm.New(llm.Config{BaseURL: os.Getenv(crashURLEnv), APIKey: "k", Model: "fake-model"})
	if err != nil {
		return fail(err)
	}
	a := agent.New(agent.Config{Model: client, Tools: tools.NewRouter(reg, tools.Policy{}), Events: bus, SessionID: "crash-1"})
	a.Run(context.Background(), "crash-1-t1", "What do the notes say?")
	return 0
}

// A session killed with SIGKILL mid-turn reloads with everything that had
// finished before the kill; a torn last line is skipped.
func TestSessionSurvivesSIGKILLMidTurn(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: llmtest.Text("Reading them."), ToolCalls: []llmtest.ToolCall{
			{ID: "call_1", Name: "read_file", Arguments: llmtest.Text(`{"path":"notes.txt"}`)}}},
		{Text: llmtest.Text("The notes ", "say"), Hang: true},
	}})
	data, wsDir := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(wsDir, "notes.txt"), []byte("buy milk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashChildEnv+"=1", crashDataEnv+"="+data, crashWSEnv+"="+wsDir, crashURLEnv+"="+srv.URL)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Mid-turn: the second model request is streaming (and hangs).
	deadline := time.Now().Add(30 * time.Second)
	for chatRequests(srv) < 2 {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the child never made its second request; stderr:\n%s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // let the deltas arrive: they must not be logged
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	st := NewStore(data)
	got, err := st.Load(wsDir, "crash-1")
	if err != nil {
		t.Fatalf("%v; child stderr:\n%s", err, stderr.String())
	}
	var kinds []string
	for _, it := range got.Items {
		kinds = append(kinds, string(it.Kind))
	}
	if strings.Join(kinds, ",") != "user,assistant,tool" {
		t.Fatalf("items after the kill: %v", kinds)
	}
	if got.Items[1].Text != "Reading them." || !strings.Contains(string(got.Items[2].Result), "buy milk") {
		t.Errorf("items %+v", got.Items)
	}
	assertPaired(t, HistoryFromTranscript(got.Items))

	// Now tear the last line, as a kill during a write would.
	f, err := os.OpenFile(st.Path(wsDir, "crash-1"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"item","atMs":5,"item":{"kind":"assistant","id":"msg-2","te`)
	f.Close()
	torn, err := st.Load(wsDir, "crash-1")
	if err != nil || !torn.Torn || len(torn.Items) != 3 {
		t.Fatalf("torn log: %+v %v", torn, err)
	}
	list, err := st.List(wsDir)
	if err != nil || len(list) != 1 || list[0].Title != "What do the notes say?" || list[0].Turns != 1 {
		t.Fatalf("list %+v %v", list, err)
	}
}

func chatRequests(srv *llmtest.Server) int {
	n := 0
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/chat/completions") {
			n++
		}
	}
	return n
}

package runtime

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gatehouse/internal/approval"
	"gatehouse/internal/events"
	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/watch"
	"gatehouse/internal/workspace"
)

// The gate calls next, so the file-change recorder sits inside it: a file
// the user changes while a write waits for approval is theirs, and a
// rejected write is never counted as the agent's.
func TestRecorderSeesOnlyCallsThatRan(t *testing.T) {
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "write_file", `{"path":"a.txt","content":"agent"}`),
	}}, approval.Manual, map[string]string{"a.txt": "before"}, nil)
	if got := h.sess.Stages(); !slices.Equal(got, []string{StageOutputCap, StagePlan, StageApproval, StageInstructions, StageRecorder}) {
		t.Fatalf("stages %v", got)
	}
	<-h.sess.files.W.Ready()
	done := make(chan protocol.StopReason)
	go func() { done <- h.run("write") }()
	req := h.waitApproval()
	if err := os.WriteFile(filepath.Join(h.root, "a.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	changed := waitChanged(t, h.sess.files.T, "a.txt")
	if err := h.gui().Resolve(req.ApprovalID, protocol.Decision{Kind: protocol.DecisionReject}); err != nil {
		t.Fatal(err)
	}
	if got := <-done; got != protocol.StopBlockedByApproval {
		t.Fatalf("turn: %s", got)
	}
	if changed.Origin != watch.OriginOutside || slices.Contains(changed.Origins, watch.OriginAgent) {
		t.Errorf("the user's edit while the write waited counted as %v", changed.Origins)
	}
	if b, _ := os.ReadFile(filepath.Join(h.root, "a.txt")); string(b) != "mine" {
		t.Errorf("a.txt: %q", b)
	}
}

func waitChanged(t *testing.T, tr *watch.Tracker, path string) watch.ChangedFile {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		for _, c := range tr.Changed() {
			if c.Path == path {
				return c
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s was never seen changing", path)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// An approved write runs as prepared through the executor and is the
// agent's; files read then changed outside become a note in the next
// request.
func TestApprovedWriteIsTheAgents(t *testing.T) {
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "write_file", `{"path":"a.txt","content":"agent"}`), text("written"),
	}}, approval.Safe, map[string]string{"a.txt": "before"}, nil)
	<-h.sess.files.W.Ready()
	done := make(chan protocol.StopReason)
	go func() { done <- h.run("write") }()
	req := h.waitApproval()
	if err := h.gui().Resolve(req.ApprovalID, protocol.Decision{Kind: protocol.DecisionOnce}); err != nil {
		t.Fatal(err)
	}
	if got := <-done; got != protocol.StopCompleted {
		t.Fatalf("turn: %s", got)
	}
	if c := waitChanged(t, h.sess.files.T, "a.txt"); c.Origin != watch.OriginAgent {
		t.Errorf("the approved write counted as %s", c.Origin)
	}
}

// Submit, Cancel, approval answers and event delivery race against one
// session; run with -race. The host's bus delivers into the session
// (Options.Events) while its lock is held, as the window's does.
func TestConcurrentSubmitCancelAnswerAndDelivery(t *testing.T) {
	var responses []llmtest.Response
	for i := 0; i < 40; i++ {
		responses = append(responses, call("c", "write_file", `{"path":"f.txt","content":"x"}`), text("ok"))
	}
	srv := llmtest.StartUnchecked(llmtest.Script{Responses: responses})
	defer srv.Close()
	h := startShared(t, srv, approval.Manual)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	loop := func(f func()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
					f()
				}
			}
		}()
	}
	loop(func() { h.sess.Submit("go"); time.Sleep(time.Millisecond) })
	loop(func() { h.sess.Cancel(); time.Sleep(3 * time.Millisecond) })
	loop(func() {
		for _, r := range h.gui().Pending() {
			h.gui().Resolve(r.ApprovalID, protocol.Decision{Kind: protocol.DecisionOnce})
		}
		time.Sleep(time.Millisecond)
	})
	loop(func() { h.bus.Flush(); h.sess.Snapshot(); h.sess.Queued() })
	loop(func() {
		h.bus.Publish(protocol.Event{Type: protocol.FsChanged, Payload: protocol.FsChangedPayload{}})
		time.Sleep(time.Millisecond)
	})
	deadline := time.Now().Add(20 * time.Second)
	for stopped(h) < 5 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	h.sess.Close()
	h.bus.Flush()
	snap := h.sess.Snapshot()
	if snap.LastSeq != h.bus.LastSeq() {
		t.Errorf("snapshot at seq %d, bus at %d", snap.LastSeq, h.bus.LastSeq())
	}
	if n := stopped(h); n == 0 {
		t.Error("no turn stopped")
	}
	for _, it := range snap.Transcript {
		if it.Kind == protocol.ItemTool && strings.Contains(string(it.Result), "internal_error") {
			t.Errorf("tool failed inside: %s", it.Result)
		}
	}
}

func stopped(h *sharedHost) int {
	n := 0
	for _, it := range h.sess.Snapshot().Transcript {
		if it.Kind == protocol.ItemStop {
			n++
		}
	}
	return n
}

// The window's shape: one bus for the host, delivering into the session.
type sharedHost struct {
	host
	bus *events.Bus
}

func startShared(t *testing.T, srv *llmtest.Server, mode approval.Mode) *sharedHost {
	t.Helper()
	sh := &sharedHost{}
	var cur atomic.Pointer[Session]
	sh.bus = events.New(events.SinkFunc(func(e protocol.Event) {
		if s := cur.Load(); s != nil {
			s.Emit(e)
		}
	}), events.Options{})
	t.Cleanup(sh.bus.Close)
	ws, err := workspace.New(t.TempDir(), workspace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	client, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "fake-model"})
	if err != nil {
		t.Fatal(err)
	}
	sh.t, sh.mode = t, mode
	sh.sess, err = New(Options{Workspace: ws, Model: client, Events: sh.bus, NoWatch: true,
		Mode:    func() approval.Mode { return mode },
		Gateway: func(id string, pub approval.Publisher) approval.Gateway { return approval.NewGUI(id) }})
	if err != nil {
		t.Fatal(err)
	}
	cur.Store(sh.sess)
	t.Cleanup(sh.sess.Close)
	return sh
}

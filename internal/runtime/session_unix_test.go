//go:build unix

package runtime

import (
	"syscall"
	"testing"
	"time"

	"gatehouse/internal/approval"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/session"
)

// Close kills the session's processes, saves them with the log and closes
// it, stops the watcher it opened, and can be called again.
func TestCloseReleasesEverything(t *testing.T) {
	data := t.TempDir()
	store := session.NewStore(data)
	var root string
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "bash", `{"action":"start","command":"echo up; sleep 300"}`), text("started"),
	}}, approval.Auto, nil, func(o *Options) {
		root = o.Workspace.Root()
		log, err := store.Create(root, "s-close")
		if err != nil {
			t.Fatal(err)
		}
		o.ID, o.Log = "s-close", log
	})
	if got := h.run("start it"); got != protocol.StopCompleted {
		t.Fatalf("turn: %s", got)
	}
	infos := h.sess.Processes().List()
	if len(infos) != 1 {
		t.Fatalf("processes %+v", infos)
	}
	h.sess.Close()
	h.sess.Close()
	if _, err := h.sess.Submit("again"); err == nil {
		t.Error("a closed session took a message")
	}
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(infos[0].PID, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("process %d outlived Close", infos[0].PID)
		}
		time.Sleep(20 * time.Millisecond)
	}
	got, err := store.Load(root, "s-close")
	if err != nil || len(got.Processes) != 1 || got.Processes[0].Info.Status == "running" {
		t.Fatalf("saved %+v %v", got, err)
	}
	if n := len(h.sess.files.W.WatchList()); n != 0 {
		t.Errorf("the watcher keeps %d watches", n)
	}
}

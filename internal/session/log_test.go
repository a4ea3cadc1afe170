package session

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/proc"
	"gatehouse/internal/protocol"
)

func userItem(turn, text string) protocol.TranscriptItem {
	return protocol.TranscriptItem{Kind: protocol.ItemUser, ID: turn, TurnID: turn, Text: text}
}

func stopItem(turn string) protocol.TranscriptItem {
	return protocol.TranscriptItem{Kind: protocol.ItemStop, TurnID: turn, Reason: protocol.StopCompleted, Usage: &protocol.Usage{}}
}

func TestLogIsWrittenOnTheFirstRecordAndReadBack(t *testing.T) {
	st := NewStore(t.TempDir())
	ws := "/home/u/proj"
	l, err := st.Create(ws, "s1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(l.Path()); !os.IsNotExist(err) {
		t.Fatalf("a session without a record left a file: %v", err)
	}
	items := []protocol.TranscriptItem{
		userItem("s1-t1", "Fix the flaky test in\nthe parser package"),
		{Kind: protocol.ItemAssistant, ID: "m1", TurnID: "s1-t1", Text: "Looking."},
		{Kind: protocol.ItemTool, ID: "c1", TurnID: "s1-t1", Tool: "read_file", Args: json.RawMessage(`{"path":"a"}`), Result: json.RawMessage(`{"ok":true}`)},
		stopItem("s1-t1"),
	}
	for _, it := range items {
		if err := l.AppendItem(it); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Append(RecordDecision, map[string]string{"approvalId": "a1", "kind": "once"}); err != nil {
		t.Fatal(err)
	}
	if err := l.Append(RecordItem, nil); err == nil {
		t.Error("Append took an item record")
	}
	if err := l.SaveProcesses([]proc.Saved{{Info: proc.Info{ProcessID: "p1", Command: "sleep 1"}, Output: []byte("hi")}}); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.AppendItem(stopItem("x")); err != ErrClosed {
		t.Errorf("append after close: %v", err)
	}
	if fi, err := os.Stat(l.Path()); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("log file mode: %v %v", fi, err)
	}

	got, err := st.Load(ws, "s1")
	if err != nil {
		t.Fatal(err)
	}
	if got.Meta.ID != "s1" || got.Meta.Workspace != ws || got.Meta.Title != "Fix the flaky test in" {
		t.Errorf("meta %+v", got.Meta)
	}
	if len(got.Items) != 4 || got.Items[2].Tool != "read_file" || got.Turns() != 1 {
		t.Errorf("items %+v", got.Items)
	}
	if len(got.Records) != 1 || got.Records[0].Type != RecordDecision || !strings.Contains(string(got.Records[0].Data), `"a1"`) {
		t.Errorf("records %+v", got.Records)
	}
	if len(got.Processes) != 1 || string(got.Processes[0].Output) != "hi" {
		t.Errorf("processes %+v", got.Processes)
	}
	if got.Torn || got.Skipped != 0 {
		t.Errorf("torn %v skipped %d", got.Torn, got.Skipped)
	}
}

func TestTornLastLineIsSkippedAndCutBeforeAppending(t *testing.T) {
	st := NewStore(t.TempDir())
	l, _ := st.Create("/w", "s1")
	l.AppendItem(userItem("s1-t1", "hello"))
	l.AppendItem(stopItem("s1-t1"))
	l.Close()
	f, err := os.OpenFile(l.Path(), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"item","atMs":1,"item":{"kind":"assistant","text":"half`)
	f.Close()

	got, err := LoadFile(l.Path())
	if err != nil {
		t.Fatal(err)
	}
	if !got.Torn || len(got.Items) != 2 {
		t.Fatalf("torn %v items %+v", got.Torn, got.Items)
	}
	l2, got2, err := st.Open("/w", "s1")
	if err != nil {
		t.Fatal(err)
	}
	if len(got2.Items) != 2 || l2.Meta().Title != "hello" {
		t.Fatalf("open: %+v %+v", got2.Items, l2.Meta())
	}
	l2.AppendItem(userItem("s1-t2", "again"))
	l2.Close()
	got3, err := LoadFile(l.Path())
	if err != nil {
		t.Fatal(err)
	}
	if got3.Torn || got3.Skipped != 0 || len(got3.Items) != 3 || got3.Items[2].Text != "again" {
		t.Fatalf("after append: torn %v skipped %d items %+v", got3.Torn, got3.Skipped, got3.Items)
	}
}

func TestListNewestFirstPerWorkspace(t *testing.T) {
	st := NewStore(t.TempDir())
	write := func(ws, id, prompt string, turns int) {
		l, err := st.Create(ws, id)
		if err != nil {
			t.Fatal(err)
		}
		for i := range turns {
			l.AppendItem(userItem(id+"-t"+string(rune('1'+i)), prompt))
			l.AppendItem(stopItem(id + "-t" + string(rune('1'+i))))
		}
		l.Close()
		time.Sleep(5 * time.Millisecond)
	}
	write("/a/proj", "old", "first one", 1)
	write("/b/proj", "other", "elsewhere", 1)
	write("/a/proj", "new", strings.Repeat("long ", 40), 2)
	write("/a/proj", "empty", "", 0) // no record: no file, not listed
	os.WriteFile(filepath.Join(st.WorkspaceDir("/a/proj"), "junk.jsonl"), []byte("not a log\n"), 0o600)

	list, err := st.List("/a/proj")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != "new" || list[1].ID != "old" {
		t.Fatalf("list %+v", list)
	}
	if list[0].Turns != 2 || !strings.HasSuffix(list[0].Title, "…") || len([]rune(list[0].Title)) != 80 {
		t.Errorf("new: %+v", list[0])
	}
	if list[1].Title != "first one" || list[1].CreatedMs == 0 || list[1].UpdatedMs < list[1].CreatedMs {
		t.Errorf("old: %+v", list[1])
	}
	if none, err := st.List("/c"); err != nil || len(none) != 0 {
		t.Errorf("unknown workspace: %v %v", none, err)
	}
}

func TestIDsAreFileNames(t *testing.T) {
	st := NewStore(t.TempDir())
	for _, id := range []string{"", "../x", "a/b", ".hidden", "a\x00"} {
		if _, err := st.Create("/w", id); err == nil {
			t.Errorf("Create took id %q", id)
		}
		if _, err := st.Load("/w", id); err == nil {
			t.Errorf("Load took id %q", id)
		}
	}
	if _, err := st.Load("/w", "missing"); err == nil {
		t.Error("Load of a missing session succeeded")
	}
}

func TestStateSeedsSeqAndRestoresProcesses(t *testing.T) {
	s := NewState("s1", []protocol.TranscriptItem{userItem("s1-t1", "hi")}, nil)
	s.SetLastSeq(41)
	s.AddProcesses([]protocol.ProcessInfo{{ProcessID: "p1", Status: protocol.StatusExited, Restored: true}})
	snap := s.Snapshot()
	if snap.LastSeq != 41 || len(snap.Processes) != 1 || len(snap.Transcript) != 1 {
		t.Fatalf("snapshot %+v", snap)
	}
}

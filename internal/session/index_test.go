package session

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"gatehouse/internal/protocol"
)

// infoOf is what LoadFile says of a log, as List said before the index.
func infoOf(t testing.TB, st *Store, ws, id string) Info {
	t.Helper()
	l, err := st.Load(ws, id)
	if err != nil {
		t.Fatal(err)
	}
	return Info{ID: id, Title: l.Meta.Title, CreatedMs: l.Meta.CreatedMs, UpdatedMs: l.UpdatedMs, Turns: l.Turns()}
}

// writeSessions writes n logs of workspace ws, each of turns turns (a
// prompt, a tool call, a reply and a stop), one buffered write each.
func writeSessions(t testing.TB, st *Store, ws string, n, turns int) {
	t.Helper()
	at := time.Now().Add(-time.Hour).UnixMilli()
	for s := range n {
		id := fmt.Sprintf("s%04d", s)
		path := st.Path(ws, id)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		w := bufio.NewWriter(f)
		enc := json.NewEncoder(w)
		enc.Encode(Record{Type: RecordMeta, AtMs: at, Meta: &Meta{ID: id, Workspace: ws, CreatedMs: at}})
		for i := range turns {
			turn := fmt.Sprintf("t%d", i)
			for _, it := range []protocol.TranscriptItem{
				{Kind: protocol.ItemUser, TurnID: turn, Text: fmt.Sprintf("prompt %d of %s", i, id)},
				{Kind: protocol.ItemTool, TurnID: turn, ID: "c" + turn, Tool: "read_file", Args: json.RawMessage(`{"path":"a.go"}`),
					Result: json.RawMessage(`{"ok":true,"content":"package main\n\nfunc main() {}\n"}`)},
				{Kind: protocol.ItemAssistant, TurnID: turn, Text: "a reply of a few words"},
				{Kind: protocol.ItemStop, TurnID: turn, Reason: protocol.StopCompleted},
			} {
				at++
				enc.Encode(Record{Type: RecordItem, AtMs: at, Item: &it})
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
}

// TestListFromTheIndexSaysWhatTheLogsSay: the index gives each session
// the Info its log gives (title from the first prompt when the meta line
// has none, a torn last line skipped), a log appended to is read again, a
// log removed is left out, and an index that does not parse is rebuilt.
func TestListFromTheIndexSaysWhatTheLogsSay(t *testing.T) {
	st, ws := NewStore(t.TempDir()), "/a/proj"
	writeSessions(t, st, ws, 3, 2)
	torn := st.Path(ws, "s0001")
	f, _ := os.OpenFile(torn, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"type":"item","atMs":1,"item":{"kind":"user","text":"cut`)
	f.Close()
	check := func(when string, want ...string) {
		t.Helper()
		list, err := st.List(ws)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != len(want) {
			t.Fatalf("%s: list %+v, want %v", when, list, want)
		}
		for _, got := range list {
			if w := infoOf(t, st, ws, got.ID); got != w {
				t.Fatalf("%s: index says %+v, the log %+v", when, got, w)
			}
		}
	}
	check("first listing", "s0000", "s0001", "s0002")
	if _, err := os.Stat(filepath.Join(st.WorkspaceDir(ws), IndexFile)); err != nil {
		t.Fatalf("no index written: %v", err)
	}
	check("from the index", "s0000", "s0001", "s0002")

	l, _, err := st.Open(ws, "s0002")
	if err != nil {
		t.Fatal(err)
	}
	l.AppendItem(userItem("t9", "one more"))
	l.Close()
	check("after an append", "s0000", "s0001", "s0002")
	if list, _ := st.List(ws); list[0].ID != "s0002" || list[0].Turns != 3 {
		t.Fatalf("the appended session: %+v", list[0])
	}

	os.Remove(st.Path(ws, "s0000"))
	check("after a removal", "s0001", "s0002")
	os.WriteFile(filepath.Join(st.WorkspaceDir(ws), IndexFile), []byte("{not json"), 0o600)
	check("after a broken index", "s0001", "s0002")
}

func TestCheckReadsTheMetaLine(t *testing.T) {
	st, ws := NewStore(t.TempDir()), "/a/proj"
	writeSessions(t, st, ws, 1, 1)
	if err := st.Check(ws, "s0000"); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(st.Path(ws, "junk"), []byte("not a log\n"), 0o600)
	for _, id := range []string{"junk", "missing", "../x"} {
		if err := st.Check(ws, id); err == nil {
			t.Errorf("Check took %q", id)
		}
	}
}

// BenchmarkList500Sessions: the Sessions menu of a workspace with 500
// sessions of 40 turns, from the index (warm) and from the logs (cold).
func BenchmarkList500Sessions(b *testing.B) {
	st, ws := NewStore(b.TempDir()), "/a/proj"
	writeSessions(b, st, ws, 500, 40)
	index := filepath.Join(st.WorkspaceDir(ws), IndexFile)
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			os.Remove(index)
			if list, err := st.List(ws); err != nil || len(list) != 500 {
				b.Fatal(len(list), err)
			}
		}
	})
	b.Run("warm", func(b *testing.B) {
		for b.Loop() {
			if list, err := st.List(ws); err != nil || len(list) != 500 {
				b.Fatal(len(list), err)
			}
		}
	})
	b.Run("loadEach", func(b *testing.B) { // what List did before the index
		for b.Loop() {
			for i := range 500 {
				infoOf(b, st, ws, fmt.Sprintf("s%04d", i))
			}
		}
	})
}

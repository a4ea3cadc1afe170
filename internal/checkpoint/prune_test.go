package checkpoint

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// within fails the test when do does not return in time.
func within(t *testing.T, what string, do func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { do(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s waited for the prune", what)
	}
}

// TestATurnProceedsWhilePruningRuns: on a store over its bound, recording a
// change asks for a prune and returns; while the prune runs (held in the
// middle here), the turn's next change is put, logged, released and read
// back without waiting, and the prune keeps it, while it drops the oldest
// sessions until the store fits.
func TestATurnProceedsWhilePruningRuns(t *testing.T) {
	st, err := Open(t.TempDir(), 1000)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Unix(1000, 0)
	record := func(session, content string) string {
		h, err := st.Put([]byte(content))
		if err != nil {
			t.Error(err)
			return ""
		}
		at = at.Add(time.Minute)
		if err := st.Append(session, Change{Unit: "u", Path: "f", Before: Version{Exists: true, Hash: h}, At: at}); err != nil {
			t.Error(err)
		}
		st.Release(h)
		return h
	}
	var old []string
	for i := range 12 {
		old = append(old, record(fmt.Sprintf("old%02d", i), strings.Repeat(string(rune('a'+i)), 100)))
	}
	first := record("now", strings.Repeat("z", 100)) // 1,300 bytes: over the bound
	if st.Size() <= st.Limit() {
		t.Fatalf("size %d under the bound", st.Size())
	}

	inPrune, resume := make(chan struct{}), make(chan struct{})
	st.pruner.hook = func() {
		select {
		case inPrune <- struct{}{}:
			<-resume
		default:
		}
	}
	within(t, "PruneSoon", func() {
		if err := st.PruneSoon("now"); err != nil {
			t.Error(err)
		}
	})
	<-inPrune
	var next string
	within(t, "the turn's next change", func() {
		next = record("now", strings.Repeat("y", 100))
		if b, err := st.Get(next); err != nil || len(b) != 100 {
			t.Errorf("Get = %d bytes, %v", len(b), err)
		}
		if again := record("now", strings.Repeat("a", 100)); again != old[0] {
			t.Errorf("the same bytes got another name")
		}
	})
	close(resume)
	st.WaitPruned()

	if !st.Has(next) || !st.Has(first) || !st.Has(old[0]) {
		t.Fatalf("the prune dropped the running session's contents: next %v first %v reused %v", st.Has(next), st.Has(first), st.Has(old[0]))
	}
	if st.Has(old[1]) || st.Size() > st.Limit() {
		t.Fatalf("after the prune: the oldest session kept %v, size %d", st.Has(old[1]), st.Size())
	}
	if !st.Has(old[11]) {
		t.Fatal("the prune dropped more than needed")
	}
}

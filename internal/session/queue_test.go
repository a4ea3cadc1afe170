package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"gatehouse/internal/events"
	"gatehouse/internal/protocol"
)

// While the log's disk is stuck, publishers are not held up: the events are
// delivered, the snapshot state folds them, and their items queue; once the
// disk comes back every item lands, in the order it was delivered.
func TestPublishersDoNotWaitForTheLogsDisk(t *testing.T) {
	l, err := NewStore(filepath.Join(t.TempDir(), "data")).Create(t.TempDir(), "s1")
	if err != nil {
		t.Fatal(err)
	}
	unblock := make(chan struct{})
	var mu sync.Mutex
	var disk bytes.Buffer
	l.disk = func(lines []byte) error {
		<-unblock
		mu.Lock()
		defer mu.Unlock()
		disk.Write(lines)
		return nil
	}
	q := l.Queue()
	state := NewState("s1", nil, func(it protocol.TranscriptItem) {
		if err := q.AppendItem(it); err != nil {
			t.Error(err)
		}
	})
	bus := events.New(state, events.Options{})

	const publishers, each = 8, 50
	var wg sync.WaitGroup
	for p := range publishers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				turn := fmt.Sprintf("t-%d-%d", p, i)
				bus.Publish(protocol.Event{SessionID: "s1", TurnID: turn, Type: protocol.TurnStarted,
					Payload: protocol.TurnStartedPayload{Prompt: turn}})
			}
		}()
	}
	published := make(chan struct{})
	go func() { wg.Wait(); close(published) }()
	select {
	case <-published:
	case <-time.After(10 * time.Second):
		close(unblock)
		t.Fatal("publishers were held up by the log's disk")
	}
	bus.Flush()
	delivered := state.Snapshot().Transcript
	if len(delivered) != publishers*each {
		t.Fatalf("%d items delivered while the disk was stuck, want %d", len(delivered), publishers*each)
	}

	close(unblock)
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	var landed []string
	for _, line := range bytes.Split(bytes.TrimSpace(disk.Bytes()), []byte("\n")) {
		var rec Record
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Fatalf("a line does not parse: %v: %s", err, line)
		}
		if rec.Type == RecordItem {
			landed = append(landed, rec.Item.ID)
		}
	}
	if len(landed) != len(delivered) {
		t.Fatalf("%d items landed, %d delivered", len(landed), len(delivered))
	}
	for i, it := range delivered {
		if landed[i] != it.ID {
			t.Fatalf("line %d is %s, delivered %s: out of order", i, landed[i], it.ID)
		}
	}
}

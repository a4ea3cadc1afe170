package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// Each bad server fails on its own panel entry, gives the model an error
// result, and leaves no process behind.

func TestServerThatExitsAtOnceFailsWithItsStderr(t *testing.T) {
	e, pids := fakeEntry(t, "quitter", "exit")
	m := newTestManager(t, Options{}, e)
	st := mustStatus(t, m, "quitter")
	if st.State != StateFailed {
		t.Fatalf("state = %s, want failed", st.State)
	}
	if !strings.Contains(st.Stderr, "missing configuration FOO_TOKEN") {
		t.Errorf("stderr tail %q lacks the server's last words", st.Stderr)
	}
	if len(m.Providers()[0].Tools()) != 0 {
		t.Error("a failed server offers tools")
	}
	assertGone(t, pids())
}

func TestServerHangingInInitializeTimesOutThenFails(t *testing.T) {
	e, pids := fakeEntry(t, "sleepy", "hang-init")
	m := newTestManager(t, Options{InitTimeout: time.Second}, e)
	st := mustStatus(t, m, "sleepy")
	if st.State != StateFailed || !strings.Contains(st.Error, "did not finish starting") {
		t.Fatalf("status = %+v, want failed after the start timeout", st)
	}
	assertGone(t, pids())
}

func TestServerPrintingNonJSONFailsWithItsStderr(t *testing.T) {
	e, pids := fakeEntry(t, "chatty", "garbage")
	m := newTestManager(t, Options{InitTimeout: 20 * time.Second}, e)
	st := mustStatus(t, m, "chatty")
	if st.State != StateFailed {
		t.Fatalf("state = %s, want failed", st.State)
	}
	if strings.Contains(st.Error, "did not finish starting") {
		t.Errorf("a banner on stdout should end the connection, not wait for the timeout: %s", st.Error)
	}
	if !strings.Contains(st.Stderr, "garbage: wrote a banner") {
		t.Errorf("stderr tail %q lacks the server's stderr", st.Stderr)
	}
	assertGone(t, pids())
}

func TestHugeResultIsCapped(t *testing.T) {
	e, pids := fakeEntry(t, "fake", "normal")
	m := newTestManager(t, Options{}, e)
	res, err := findTool(t, m, "mcp__fake__big").Run(context.Background(), json.RawMessage(`{"bytes":10485760}`))
	if err != nil || res.IsError {
		t.Fatalf("big: %v %s", err, res.Output)
	}
	b := body(t, res)
	content, _ := b["content"].(string)
	if b["truncated"] != true || len(content) > MaxResultBytes+200 {
		t.Fatalf("a 10 MB result reached the model as %d bytes (truncated=%v)", len(content), b["truncated"])
	}
	if !strings.Contains(content, "the result was 10485760 bytes") {
		t.Errorf("the cut is not said: %q", content[len(content)-120:])
	}
	m.Close()
	assertGone(t, pids())
}

func TestCallThatNeverAnswersTimesOutAndCancelWorks(t *testing.T) {
	e, pids := fakeEntry(t, "fake", "normal")
	e.Config.TimeoutSeconds = 1
	m := newTestManager(t, Options{}, e)
	hang := findTool(t, m, "mcp__fake__hang")

	res, err := hang.Run(context.Background(), json.RawMessage(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	if code, msg := errorMessage(t, res); code != "timeout" || !strings.Contains(msg, "did not answer hang within 1s") {
		t.Fatalf("timeout result = %s %q", code, msg)
	}

	// The turn's cancel reaches the call: with the default 120 s timeout
	// only the cancel can end it.
	m2cfg, _ := m.Config("fake")
	m2cfg.TimeoutSeconds = 0
	if err := m.Put(Entry{Name: "fake", Source: "test", Config: m2cfg}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := m.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	hang = findTool(t, m, "mcp__fake__hang")
	turn, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		res, err = hang.Run(turn, json.RawMessage(`{}`))
		close(done)
	}()
	stop()
	<-done
	if err != nil {
		t.Fatal(err)
	}
	if code, _ := errorMessage(t, res); code != "not_run" {
		t.Fatalf("cancelled call: code %s, want not_run", code)
	}
	// The server is still usable after a cancelled call.
	res, err = findTool(t, m, "mcp__fake__echo").Run(context.Background(), json.RawMessage(`{"text":"still here"}`))
	if err != nil || body(t, res)["content"] != "echo: still here" {
		t.Fatalf("echo after cancel: %v %s", err, res.Output)
	}
	m.Close()
	assertGone(t, pids())
}

func TestServerIgnoringStdinCloseIsKilledWithItsGroup(t *testing.T) {
	e, pids := fakeEntry(t, "stubborn", "ignore-stdin")
	m := newTestManager(t, Options{}, e)
	if st := mustStatus(t, m, "stubborn"); st.State != StateReady {
		t.Fatalf("state = %s (%s), want ready", st.State, st.Error)
	}
	ps := pids()
	if len(ps) != 2 {
		t.Fatalf("want the server and its grandchild, got pids %v", ps)
	}
	for _, p := range ps {
		if !alive(p) {
			t.Fatalf("process %d is not running before close", p)
		}
	}
	m.Close()
	assertGone(t, ps)
}

//go:build linux

package bash

import (
	"encoding/json"
	"strings"
	"testing"

	"gatehouse/internal/proc"
)

func TestStartWriteLogsStop(t *testing.T) {
	tool, root := newTool(t, proc.Options{})
	m := mustOK(t, tool, jsonArgs("action", "start", "command", "cat"))
	if m["processId"] != "p1" || m["status"] != "running" || m["cwd"] != root || m["pid"].(float64) <= 0 {
		t.Fatalf("start %v", m)
	}
	if m := mustOK(t, tool, jsonArgs("action", "write", "processId", "p1", "input", "ping\n")); m["bytesWritten"] != 5.0 {
		t.Fatalf("write %v", m)
	}
	waitFor(t, "cat to echo", func() bool {
		m := mustOK(t, tool, jsonArgs("action", "logs", "processId", "p1"))
		return m["content"] == "ping\nping\n" // the terminal's echo, then cat's
	})
	m = mustOK(t, tool, jsonArgs("action", "stop", "processId", "p1"))
	if m["status"] != "stopped" || m["exitCode"] != 143.0 || m["endedAt"] == nil {
		t.Fatalf("stop %v", m)
	}
	m = mustOK(t, tool, jsonArgs("action", "list"))
	if ps := m["processes"].([]any); len(ps) != 1 || ps[0].(map[string]any)["status"] != "stopped" {
		t.Fatalf("list %v", m)
	}
	m, res := call(t, tool, jsonArgs("action", "write", "processId", "p1", "input", "x"))
	if !res.IsError || errCode(m) != "process_not_running" {
		t.Fatalf("write after stop %s", res.Output)
	}
}

func TestLogsOffsetsAndTruncated(t *testing.T) {
	tool, _ := newTool(t, proc.Options{RingSize: 1000})
	mustOK(t, tool, jsonArgs("action", "start", "command", "seq 1 2000; sleep 30"))
	waitFor(t, "the output", func() bool {
		m := mustOK(t, tool, jsonArgs("action", "logs", "processId", "p1"))
		return strings.HasSuffix(m["content"].(string), "2000\n")
	})
	m := mustOK(t, tool, jsonArgs("action", "logs", "processId", "p1", "offset", 0, "limit", 100))
	off := m["offset"].(float64)
	if m["truncated"] != true || off <= 0 || m["nextOffset"] != off+100 {
		t.Fatalf("fell behind: %v", m)
	}
	m = mustOK(t, tool, jsonArgs("action", "logs", "processId", "p1", "offset", m["nextOffset"], "limit", 100))
	if m["truncated"] != false || m["offset"] != off+100 {
		t.Fatalf("next page: %v", m)
	}
	end := m["nextOffset"].(float64) + 100000
	m = mustOK(t, tool, jsonArgs("action", "logs", "processId", "p1", "offset", end))
	if m["content"] != "" || m["truncated"] != false || m["status"] != "running" {
		t.Fatalf("past the end: %v", m)
	}
}

func TestLogsCutsOnRuneBoundaries(t *testing.T) {
	tool, _ := newTool(t, proc.Options{})
	mustOK(t, tool, jsonArgs("action", "start", "command", "printf 'aé€b'; sleep 30"))
	waitFor(t, "the output", func() bool {
		m := mustOK(t, tool, jsonArgs("action", "logs", "processId", "p1"))
		return m["content"] == "aé€b"
	})
	m := mustOK(t, tool, jsonArgs("action", "logs", "processId", "p1", "offset", 0, "limit", 4)) // a, é, 1 byte of €
	if m["content"] != "aé" || m["nextOffset"] != 3.0 {
		t.Fatalf("page 1: %v", m)
	}
	m = mustOK(t, tool, jsonArgs("action", "logs", "processId", "p1", "offset", 2, "limit", 10)) // inside é
	if m["content"] != "€b" || m["offset"] != 3.0 {
		t.Fatalf("page 2: %v", m)
	}
}

func TestUnknownProcessIsNamed(t *testing.T) {
	tool, _ := newTool(t, proc.Options{})
	for _, action := range []string{"status", "logs", "stop"} {
		m, res := call(t, tool, jsonArgs("action", action, "processId", "p9"))
		if !res.IsError || errCode(m) != "unknown_process" || !strings.Contains(errMessage(m), `"p9"`) {
			t.Fatalf("%s: %s", action, res.Output)
		}
	}
}

func TestArgumentsChecked(t *testing.T) {
	tool, _ := newTool(t, proc.Options{})
	for _, args := range []string{
		`{}`, `{"action":"run"}`, `{"action":"exec"}`, `{"action":"exec","command":"ls","processId":"p1"}`,
		`{"action":"logs"}`, `{"action":"write","processId":"p1"}`, `{"action":"write","processId":"p1","input":""}`,
		`{"action":"exec","command":"ls","timeoutMs":0}`, `{"action":"list","extra":1}`,
	} {
		m, res := call(t, tool, args)
		if !res.IsError || errCode(m) != "invalid_arguments" {
			t.Errorf("%s: %s", args, res.Output)
		}
	}
	// Strict-mode models send every field, null when unused.
	mustOK(t, tool, `{"action":"list","command":null,"cwd":null,"timeoutMs":null,"processId":null,"offset":null,"limit":null,"input":null}`)
}

func TestReadOnlyCallAndSpec(t *testing.T) {
	tool, _ := newTool(t, proc.Options{})
	for args, want := range map[string]bool{
		`{"action":"status"}`: true, `{"action":"logs"}`: true, `{"action":"list"}`: true,
		`{"action":"exec"}`: false, `{"action":"start"}`: false, `{"action":"write"}`: false, `{"action":"stop"}`: false, `nope`: false,
	} {
		if got := tool.ReadOnlyCall(json.RawMessage(args)); got != want {
			t.Errorf("ReadOnlyCall(%s) = %v", args, got)
		}
	}
	s := tool.Spec()
	var schema map[string]any
	if s.Name != "bash" || s.ReadOnly || !strings.Contains(s.Description, "`exec") || json.Unmarshal(s.Parameters, &schema) != nil {
		t.Fatalf("spec %+v", s)
	}
}

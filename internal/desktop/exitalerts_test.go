package desktop

import (
	"testing"

	"gatehouse/internal/protocol"
)

func exitInfo(status protocol.ProcessStatus, code int, restored bool) protocol.ProcessInfo {
	return protocol.ProcessInfo{ProcessID: "p1", Command: "npm test", Status: status, ExitCode: &code, Restored: restored}
}

func TestFailedWhileAway(t *testing.T) {
	cases := []struct {
		name    string
		focused bool
		info    protocol.ProcessInfo
		want    bool
	}{
		{"non-zero exit while away", false, exitInfo(protocol.StatusExited, 1, false), true},
		{"non-zero exit while focused", true, exitInfo(protocol.StatusExited, 1, false), false},
		{"zero exit while away", false, exitInfo(protocol.StatusExited, 0, false), false},
		{"stopped by the user while away", false, exitInfo(protocol.StatusStopped, 143, false), false},
		{"restored from an earlier run", false, exitInfo(protocol.StatusExited, 2, true), false},
		{"no exit code", false, protocol.ProcessInfo{Status: protocol.StatusExited}, false},
	}
	for _, c := range cases {
		if got := FailedWhileAway(c.focused, c.info); got != c.want {
			t.Errorf("%s: FailedWhileAway = %v, want %v", c.name, got, c.want)
		}
	}
}

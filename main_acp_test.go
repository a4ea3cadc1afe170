package main

import (
	"bytes"
	"strings"
	"testing"
)

// `gatehouse acp` is dispatched before the window; a bad mode is refused
// on stderr and stdout (the protocol's) stays empty.
func TestACPIsASubcommand(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	var out, errb bytes.Buffer
	code := run([]string{"acp", "--approval", "reckless", "--model", "m"}, &out, &errb)
	if code != 2 || !strings.Contains(errb.String(), `gatehouse acp: unknown approval mode "reckless"`) || out.Len() != 0 {
		t.Fatalf("exit %d stdout %q stderr %q", code, out.String(), errb.String())
	}
}

package main

import (
	"bytes"
	"strings"
	"testing"
)

// `gatehouse exec` is dispatched before the window, flags and all.
func TestExecIsASubcommand(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	var out, errb bytes.Buffer
	if code := run([]string{"exec", "--prompt", "hi"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "--workspace is required") {
		t.Fatalf("exit %d stderr %q", code, errb.String())
	}
}

// An unknown --api is refused before any window opens.
func TestUnknownAPIFlag(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"--api", "completions"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), `unknown --api "completions"`) {
		t.Fatalf("exit %d stderr %q", code, errb.String())
	}
}

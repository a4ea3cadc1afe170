package gui

import (
	"gatehouse/internal/protocol"

	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/sandbox"
	"gatehouse/internal/supervisor/suptest"
)

// The window's sessions run commands under the helper, confined; the
// header's state and the settings' view say so, and turning the sandbox off
// shows in both.
func TestSessionCommandsRunConfinedAndTheUISaysSo(t *testing.T) {
	suptest.Confining(t)
	app, ws := newTestApp(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "bash", Arguments: llmtest.Text(`{"action":"exec","command":"echo in > inside.txt"}`)}}},
		{Text: llmtest.Text("done")},
	}})
	if _, err := app.Submit(protocol.Submission{Text: "go"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	if b, err := os.ReadFile(filepath.Join(ws, "inside.txt")); err != nil || string(b) != "in\n" {
		t.Fatalf("inside.txt: %q %v", b, err)
	}
	if st := app.State(); st.Unconfined != "" || st.SandboxOff {
		t.Fatalf("state says unconfined: %+v", st)
	}
	v := app.Sandbox()
	if !v.Confined || !slices.Contains(v.Writable, ws) || len(v.Layers) == 0 || !slices.Contains(v.DenyList, "~/.ssh") ||
		!strings.Contains(v.Line, "Landlock") {
		t.Fatalf("sandbox view: %+v", v)
	}
	if _, err := app.SetSandboxLists([]string{"relative/path"}, nil); err == nil {
		t.Fatal("a relative deny-read entry was saved")
	}
	if v, err := app.SetSandboxLists([]string{"~/.ssh", "~/secret", ""}, []string{"$SSH_AUTH_SOCK"}); err != nil ||
		!slices.Equal(v.DenyList, []string{"~/.ssh", "~/secret"}) || !slices.Equal(v.Sockets, []string{"$SSH_AUTH_SOCK"}) {
		t.Fatalf("lists: %+v %v", v, err)
	}
	if _, err := app.SetSandbox("none", false); err == nil {
		t.Fatal("an unknown mode was saved")
	}
	v, err := app.SetSandbox(sandbox.ModeOff, true)
	if err != nil || v.Confined || !strings.Contains(v.Reason, "off") || !v.DenyTCP {
		t.Fatalf("off: %+v %v", v, err)
	}
	if st := app.State(); !st.SandboxOff || st.Unconfined == "" {
		t.Fatalf("state after off: %+v", st)
	}
	if s := app.currentSession(); s.Processes().Confined(ws) {
		t.Fatal("the open session still confines after the sandbox was turned off")
	}
	if left := app.Leftovers(); left == nil || len(left) != 0 {
		t.Fatalf("leftovers = %#v, want an empty list", left)
	}
}

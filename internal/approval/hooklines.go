package approval

import (
	"fmt"

	"gatehouse/internal/protocol"
)

// HookLines renders what the user's hooks said about a waiting call, one
// line each, as the window's dialog lists them: first that a hook rewrote
// the call (what is shown is its rewrite, not the model's call), then
// each hook with its event, source, verdict and reason. Hosts that show
// text (the terminal prompt, an editor's permission request) print these.
func HookLines(hooks []protocol.HookRun, rw *protocol.HookRewrite) []string {
	var out []string
	if rw != nil {
		out = append(out, fmt.Sprintf("⚠ rewritten by hook %q: this is the call as the hook changed it, not as the model sent it", rw.Hook))
	}
	for _, h := range hooks {
		line := fmt.Sprintf("hook %q (%s, %s): %s", h.Name, h.Event, h.Source, h.Verdict)
		if h.Reason != "" {
			line += " — " + h.Reason
		}
		out = append(out, line)
	}
	return out
}

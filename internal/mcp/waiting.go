package mcp

import (
	"fmt"
	"slices"
	"sync"

	"gatehouse/internal/protocol"
)

// Teller is the session a host tells about servers still starting: it asks
// the host's note source before each model request, and takes the
// transcript item of a turn that runs without some servers' tools.
type Teller interface {
	AddNotes(func() []string)
	TurnID() string
	Tell(typ protocol.EventType, payload any)
}

// Tell makes the servers of s's workspace dir part of its transcript and
// notes: before a
// model request, each server still starting that the running turn has not
// yet named is named in an mcp.waiting item (the request goes without its
// tools); before the first request after such a server is ready, the model
// is told once that its tools are now there.
func (h *Host) Tell(s Teller, dir string) {
	w := &waiting{list: func() []protocol.McpServer { return h.statuses(dir) }, s: s, told: map[string]bool{}, named: map[string]bool{}}
	s.AddNotes(w.notes)
}

type waiting struct {
	list func() []protocol.McpServer
	s    Teller

	mu    sync.Mutex
	turn  string
	told  map[string]bool // servers the model went without, not yet ready
	named map[string]bool // servers the running turn's item named
}

func (w *waiting) notes() []string {
	states := map[string]protocol.McpState{}
	for _, st := range w.list() {
		states[st.Name] = st.State
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for _, name := range sortedKeys(w.told) {
		switch states[name] {
		case StateStarting:
			continue
		case StateReady:
			out = append(out, fmt.Sprintf("The MCP server %q is ready now: its tools are available from this request on.", name))
		}
		delete(w.told, name) // failed, disabled or removed: the panel says so
	}
	if turn := w.s.TurnID(); turn != w.turn {
		w.turn, w.named = turn, map[string]bool{}
	}
	var names []string
	for name, state := range states {
		if state == StateStarting && !w.named[name] {
			names = append(names, name)
			w.named[name], w.told[name] = true, true
		}
	}
	if len(names) > 0 {
		slices.Sort(names)
		w.s.Tell(protocol.McpWaiting, protocol.McpWaitingPayload{Servers: names})
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

package hooks

import (
	"encoding/json"
	"fmt"
	"slices"

	"gatehouse/internal/frontmatter"
)

// agentEvents are the events an agent definition's hooks may name: those
// of its child's own calls and of its end. As in Claude Code, a
// definition's Stop hook runs when the child stops, as SubagentStop.
var agentEvents = []Event{PreToolUse, PostToolUse, PostToolUseFailure, Stop, SubagentStop}

// ParseAgent reads the hooks of agent's definition (source: its file),
// given as a hooks file holds them ({"hooks": …}, JSON), with the
// validator hooks files have; where names the place in errors (the file,
// its line, the key). They are ScopeAgent hooks of agent, a Stop hook
// turned SubagentStop; an event a child does not run is an error.
func ParseAgent(b []byte, source, where, agent string) ([]Hook, error) {
	var f File
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("%s: not in the shape of a hooks file's hooks (%v)", where, err)
	}
	for ev := range f.Hooks {
		if eventRank(ev) < len(Events) && !slices.Contains(agentEvents, ev) {
			return nil, fmt.Errorf("%s: %s does not run for an agent's child (an agent's hooks: PreToolUse, PostToolUse, PostToolUseFailure, Stop)", where, ev)
		}
	}
	hs, err := f.hooks(source, where)
	if err != nil {
		return nil, err
	}
	n := 0
	for i := range hs {
		if hs[i].Event == SubagentStop {
			n++
		}
	}
	for i := range hs {
		hs[i].Scope, hs[i].Agent = ScopeAgent, agent
		if hs[i].Event == Stop {
			hs[i].Event, hs[i].Index = SubagentStop, n
			n++
		}
	}
	return hs, nil
}

// ReadAgent reads the name and the hooks of the agent definition data
// (source: its file); nil hooks when it has none.
func ReadAgent(data []byte, source string) (string, []Hook, error) {
	name, b, err := frontmatter.AgentHooks(data)
	if err != nil {
		return name, nil, fmt.Errorf("%s: %w", source, err)
	}
	if b == nil {
		return name, nil, nil
	}
	hs, err := ParseAgent(b, source, source+": hooks", name)
	return name, hs, err
}

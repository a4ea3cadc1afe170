package agent

import (
	_ "embed"
	"strings"

	"gatehouse/internal/workspace"
)

//go:embed system.md
var systemTemplate string

// maxAgentsMD caps how much of AGENTS.md goes into the prompt.
const maxAgentsMD = 32 << 10

// SystemPrompt builds the system prompt for a workspace: the tool rules, the
// workspace path, and the workspace's AGENTS.md when it has one.
func SystemPrompt(root string) string {
	var b strings.Builder
	b.WriteString(strings.ReplaceAll(systemTemplate, "{{workspace}}", root))
	// Through the boundary: a link out of the workspace (to
	// /proc/self/environ, to a file of the user's), a FIFO or a device is
	// not read, and no more than the cap is.
	data, trunc, err := workspace.ReadInside(root, "AGENTS.md", maxAgentsMD)
	if err == nil && len(data) > 0 {
		if trunc {
			data = append(data, "\n[AGENTS.md cut here: it is longer than 32 KiB]"...)
		}
		b.WriteString("\n\n## Project instructions (AGENTS.md)\n\n")
		b.Write(data)
	}
	return b.String()
}

package agent

import (
	_ "embed"
	"os"
	"path/filepath"
	"strings"
)

//go:embed system.md
var systemTemplate string

// maxAgentsMD caps how much of AGENTS.md goes into the prompt.
const maxAgentsMD = 32 << 10

// SystemPrompt builds the system prompt for a workspace: the tool rules, the
// workspace path, and the workspace's AGENTS.md when it has one.
func SystemPrompt(workspace string) string {
	var b strings.Builder
	b.WriteString(strings.ReplaceAll(systemTemplate, "{{workspace}}", workspace))
	data, err := os.ReadFile(filepath.Join(workspace, "AGENTS.md"))
	if err == nil && len(data) > 0 {
		if len(data) > maxAgentsMD {
			data = append(data[:maxAgentsMD], "\n[AGENTS.md cut here: it is longer than 32 KiB]"...)
		}
		b.WriteString("\n\n## Project instructions (AGENTS.md)\n\n")
		b.Write(data)
	}
	return b.String()
}

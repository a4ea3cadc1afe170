package agent

import (
	_ "embed"
	"strings"

	"gatehouse/internal/instructions"
)

//go:embed system.md
var systemTemplate string

// SystemPrompt builds the system prompt for a workspace: the tool rules, the
// workspace path, and the workspace's AGENTS.md (or CLAUDE.md) when it has
// one.
func SystemPrompt(root string) string {
	return SystemPromptWith(root, instructions.New(root, ""))
}

// SystemPromptWith is SystemPrompt with the instructions ins reads (the
// user's AGENTS.md, the workspace root's), read through the boundary: a
// link out of the workspace, a FIFO or a device is not read, and no more
// than the cap is.
func SystemPromptWith(root string, ins *instructions.Set) string {
	return strings.ReplaceAll(systemTemplate, "{{workspace}}", root) + ins.Prompt()
}

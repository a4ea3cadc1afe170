package acp

import (
	"context"
	"strings"

	sdk "github.com/coder/acp-go-sdk"
)

// commands is the session's available commands as ACP lists them: one per
// offered skill (its name and description; what follows /name is the
// message sent with it), then the MCP servers' prompts (prompts.go).
func (s *acpSession) commands() []sdk.AvailableCommand {
	out := s.skillCommands()
	return append(out, s.promptCommands()...)
}

func (s *acpSession) skillCommands() []sdk.AvailableCommand {
	c := s.rt.Skills
	if c == nil {
		return nil
	}
	var out []sdk.AvailableCommand
	for _, k := range c.Set().Offered() {
		out = append(out, sdk.AvailableCommand{Name: k.Name, Description: k.Description,
			Input: &sdk.AvailableCommandInput{Unstructured: &sdk.UnstructuredCommandInput{Hint: "what to do with the skill"}}})
	}
	return out
}

// sendCommands tells the editor the session's available commands (the
// skills), after session/new answered.
func (s *acpSession) sendCommands(ctx context.Context) {
	cmds := s.commands()
	s.cmdWatch.mu.Lock()
	s.cmdWatch.last = cmds
	s.cmdWatch.mu.Unlock()
	if len(cmds) == 0 {
		return
	}
	s.send(ctx, sdk.SessionUpdate{AvailableCommandsUpdate: &sdk.SessionAvailableCommandsUpdate{
		SessionUpdate: "available_commands_update", AvailableCommands: cmds}})
}

// withSkill turns a prompt that starts with /name, name an offered skill,
// into the message sent with that skill loaded; any other text is kept.
func (s *acpSession) withSkill(text string) string {
	rest, ok := strings.CutPrefix(text, "/")
	if !ok {
		return text
	}
	name, args, _ := strings.Cut(rest, " ")
	c := s.rt.Skills
	if c == nil {
		return text
	}
	if _, found := c.Set().Find(name); !found {
		return text
	}
	msg, _, err := c.UserPrompt(name, strings.TrimSpace(args))
	if err != nil {
		return text
	}
	return msg
}

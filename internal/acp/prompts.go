package acp

import (
	"context"
	"slices"
	"strings"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"gatehouse/internal/slash"
)

// The MCP servers' prompts as the editor's available commands: one per
// prompt, /server:prompt, its input hint naming the arguments (typed as
// key=value after the name). A prompt text starting with such a name is
// sent as the prompt's expansion. When a server's prompts change
// (prompts/list_changed) the editor is told the commands again.

// promptCommands are the session's servers' prompts as available commands.
func (s *acpSession) promptCommands() []sdk.AvailableCommand {
	m := s.rt.Servers()
	if m == nil {
		return nil
	}
	entries, _ := m.Prompts()
	var out []sdk.AvailableCommand
	for _, e := range entries {
		c := sdk.AvailableCommand{Name: e.Name, Description: e.Description}
		if len(e.Arguments) > 0 {
			c.Input = &sdk.AvailableCommandInput{Unstructured: &sdk.UnstructuredCommandInput{Hint: argsHint(e.Arguments)}}
		}
		out = append(out, c)
	}
	return out
}

// argsHint names a prompt's arguments as they are typed: city=… (required).
func argsHint(args []slash.Arg) string {
	var parts []string
	for _, a := range args {
		p := a.Name + "=…"
		if a.Required {
			p += " (required)"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " ")
}

// withPrompt turns "/server:prompt key=value …" into the prompt's
// expansion; other text is kept. A prompt that cannot be expanded (a
// required argument missing) is an error the editor shows.
func (s *acpSession) withPrompt(text string) (string, error) {
	m := s.rt.Servers()
	if m == nil {
		return text, nil
	}
	out, ok, err := m.ExpandTyped(text)
	if err != nil || !ok {
		return text, err
	}
	return out, nil
}

// commandsWatch re-sends the available commands when they change.
type commandsWatch struct {
	mu   sync.Mutex
	last []sdk.AvailableCommand
	stop func()
}

// watchCommands tells the editor the commands again whenever the
// session's servers change them, until the session closes.
func (s *acpSession) watchCommands(ctx context.Context) {
	m := s.rt.Servers()
	if m == nil {
		return
	}
	s.cmdWatch.stop = m.Watch(func() {
		go func() {
			cmds := s.commands()
			s.cmdWatch.mu.Lock()
			same := slices.EqualFunc(cmds, s.cmdWatch.last, func(a, b sdk.AvailableCommand) bool {
				return a.Name == b.Name && a.Description == b.Description
			})
			s.cmdWatch.last = cmds
			s.cmdWatch.mu.Unlock()
			if !same {
				s.send(ctx, sdk.SessionUpdate{AvailableCommandsUpdate: &sdk.SessionAvailableCommandsUpdate{
					SessionUpdate: "available_commands_update", AvailableCommands: cmds}})
			}
		}()
	})
}

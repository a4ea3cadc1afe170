package gui

import (
	"fmt"
	"path/filepath"

	"gatehouse/internal/usercmd"
)

// commandsDir is the folder of the user's own slash commands.
func (a *App) commandsDir() string { return filepath.Join(a.store.Dir(), "commands") }

// Commands lists the composer's slash commands: the built-ins, then the
// user's own (read again on every call, so a new file shows at once).
func (a *App) Commands() []usercmd.Command {
	cmds, errs := usercmd.Load(a.commandsDir())
	for _, err := range errs {
		a.log.Warn("a command file was left out", "err", err)
	}
	return append(append([]usercmd.Command{}, usercmd.Builtins...), cmds...)
}

// RunCommand sends the user's command name with args as a message: its
// prompt with $ARGUMENTS replaced.
func (a *App) RunCommand(name, args string) (SubmitResult, error) {
	cmds, _ := usercmd.Load(a.commandsDir())
	c, ok := usercmd.Find(cmds, name)
	if !ok {
		return SubmitResult{}, fmt.Errorf("no command /%s (add %s)", name, filepath.Join(a.commandsDir(), name+".md"))
	}
	return a.Submit(c.Expand(args))
}

package gui

import (
	"fmt"
	"path/filepath"
	"strings"

	"gatehouse/internal/trust"
	"gatehouse/internal/usercmd"
)

// commandsDir is the folder of the user's own slash commands.
func (a *App) commandsDir() string { return filepath.Join(a.store.Dir(), "commands") }

// Commands lists the composer's slash commands: the built-ins, the user's
// own, then the open workspace's .gatehouse/commands/ once trusted as it
// is now (read again on every call, so a new file shows at once and a
// changed one stops being offered).
func (a *App) Commands() []usercmd.Command {
	cmds, errs := usercmd.Load(a.commandsDir())
	ws, wsErrs := usercmd.Workspace(trust.NewStore(a.store.Dir()), a.workspaceRoot())
	for _, err := range append(errs, wsErrs...) {
		a.log.Warn("a command file was left out", "err", err)
	}
	return a.withSkills(usercmd.Merge(cmds, ws))
}

// RunCommand sends the command name with args as a message: its prompt
// with $ARGUMENTS replaced.
func (a *App) RunCommand(name, args string) (SubmitResult, error) {
	c, ok := usercmd.Find(a.Commands(), name)
	if ok && c.Body == "" && strings.HasPrefix(c.Source, skillSource) {
		return a.RunSkill(name, args)
	}
	if !ok || c.Body == "" {
		return SubmitResult{}, fmt.Errorf("no command /%s (add %s)", name, filepath.Join(a.commandsDir(), name+".md"))
	}
	return a.Submit(c.Expand(args))
}

// CommandsPending returns the workspace's .gatehouse/commands/ when it
// waits for trust (nil: nothing to ask).
func (a *App) CommandsPending() (*usercmd.Pending, error) {
	return usercmd.PendingTrust(trust.NewStore(a.store.Dir()), a.workspaceRoot())
}

// CommandsTrustWorkspace trusts the workspace's commands as the prompt
// showed them (hash); they are offered from the next "/" on.
func (a *App) CommandsTrustWorkspace(hash string) error {
	return usercmd.TrustWorkspace(trust.NewStore(a.store.Dir()), a.workspaceRoot(), hash)
}

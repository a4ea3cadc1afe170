package cli

import (
	"context"
	"io"
	"os"

	"gatehouse/internal/approval"
	"gatehouse/internal/policy"
	"gatehouse/internal/tools/steer"
)

// terminalHost is how exec asks: the approval gateway
// (runtime.Options.Gateway) and who answers ask_user. safe and manual ask on
// the terminal when stdin and stderr are both one, so --json stdout stays
// clean; without a terminal every call that needs approval is rejected, and
// the turn ends as blocked_by_approval with nothing changed, and ask_user
// answers that no one can answer. auto never asks (the workspace boundary
// still holds). The gate publishes each request and its answer, so --json
// readers see why a call waited or was rejected.
//
// The terminal offers "always" when the standing policy can be saved
// (save: the user's files for the workspace; no config folder, none).
func terminalHost(stdin io.Reader, stderr io.Writer, save policy.Where) (func(string, approval.Publisher) approval.Gateway, steer.Asker) {
	in, _ := stdin.(*os.File)
	out, _ := stderr.(*os.File)
	gw := approval.HeadlessGateway(in, out)
	var asker steer.Asker
	if t, ok := gw.(*approval.Terminal); ok {
		asker = terminalAsker{t}
		if save.ConfigDir != "" && save.Workspace != "" {
			t.OfferAlways(approval.SaveFiles{Workspace: save.WorkspaceFile(), Everywhere: save.UserFile()})
		}
	}
	return func(string, approval.Publisher) approval.Gateway { return gw }, asker
}

// terminalAsker asks the model's questions on exec's terminal.
type terminalAsker struct{ t *approval.Terminal }

func (a terminalAsker) Ask(ctx context.Context, q steer.Question) (string, error) {
	return a.t.Question(ctx, q.Question, q.Choices)
}

// AskForm puts an MCP server's question on the terminal (steer.FormAsker).
func (a terminalAsker) AskForm(ctx context.Context, f steer.Form) (steer.FormAnswer, error) {
	return a.t.Form(ctx, f)
}

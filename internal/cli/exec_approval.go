package cli

import (
	"io"
	"os"

	"gatehouse/internal/approval"
)

// terminalGateway is how exec asks (runtime.Options.Gateway): safe and
// manual ask on the terminal when stdin and stderr are both one, so --json
// stdout stays clean; without a terminal every call that needs approval is
// rejected, and the turn ends as blocked_by_approval with nothing changed.
// auto never asks (the workspace boundary still holds). The gate publishes
// each request and its answer, so --json readers see why a call waited or
// was rejected.
func terminalGateway(stdin io.Reader, stderr io.Writer) func(string, approval.Publisher) approval.Gateway {
	return func(string, approval.Publisher) approval.Gateway {
		in, _ := stdin.(*os.File)
		out, _ := stderr.(*os.File)
		return approval.HeadlessGateway(in, out)
	}
}

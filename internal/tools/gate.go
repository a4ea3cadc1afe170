package tools

import (
	"context"
	"encoding/json"

	"gatehouse/internal/protocol"
)

// Gated is implemented by tools whose calls can be described before they
// run, so the approval gate can show them, match them against session rules,
// and then run exactly what was shown. A tool that does not implement it is
// previewed by its arguments and ruled by its name.
//
// The gate decides; the tool only describes. Prepare must not change
// anything (no write, no process started) and may be called concurrently.
type Gated interface {
	// Prepare plans the call. When the call cannot go ahead (malformed
	// arguments, a patch that does not apply, a path outside the workspace)
	// ok is false and r is the error result to return without asking.
	Prepare(ctx context.Context, args json.RawMessage) (p *Prepared, r Result, ok bool)
}

// Prepared is a call described as data.
type Prepared struct {
	// Paths lists the workspace-relative, slash-separated paths the call
	// changes, both paths of a move: the keys of a file rule.
	Paths []string
	// Files is the dry run of each file operation (file tools).
	Files []protocol.FilePreview
	// Partial reports that Run honours the Files and Hunks of a decision of
	// kind partial.
	Partial bool
	// Select (set when Partial) is a dry run of only the chosen files and
	// hunks, read from the disk now: what a partial decision choosing sel
	// would write. The approval dialog's language servers check it when
	// the user chooses some hunks.
	Select func(sel protocol.ProposalSelection) ([]protocol.FilePreview, error)
	// Command describes a bash call; the gate parses Command.Command.
	Command *protocol.CommandPreview
	// Mcp describes a call of an MCP server's tool, and ArgsText its
	// arguments for display; a session rule covers the tool by name.
	Mcp      *protocol.McpPreview
	ArgsText string
	// Web describes a web_fetch call; a session rule covers its domain.
	Web *protocol.WebPreview
	// Reads lists the workspace-relative, slash-separated paths the call
	// reads, resolved (a symlink to .env is .env): the file read_file or
	// view_image reads, the folder list_dir, glob or grep starts from
	// (what a walk finds below it, the boundary checks as it goes).
	Reads []string
	// Acts marks a call that does something its plan cannot name in
	// paths or commands: an MCP tool without a trusted read-only hint, a
	// child agent that may write, a fetch that asks. The plan stage sets
	// it for such opaque calls from the tool's own claim
	// (ReadOnlyCall), the stand-in where a tool cannot describe itself.
	Acts bool
	// Run runs the call as prepared, once. d is the approving decision (of
	// kind once, session or partial). A file that no longer has the hash it
	// had when prepared is refused with changed_since_preview, not
	// overwritten. Only the chain's executor calls it (Call.Plan,
	// Call.Decision).
	Run func(ctx context.Context, d protocol.Decision) (Result, error)
}

// ReadOnly reports whether the call only reads, derived from the plan: it
// changes no path, runs no command (bash status, logs and list run
// nothing) and does nothing else (Acts). Safe mode runs such a call
// unasked and plan mode offers it; a plan that writes is never read-only,
// whatever its tool claims.
func (p *Prepared) ReadOnly() bool {
	return len(p.Paths) == 0 && len(p.Files) == 0 && !p.Runs() && !p.Acts
}

// Runs reports whether the call runs or steers a command (bash exec,
// start, write, stop; not status, logs or list).
func (p *Prepared) Runs() bool {
	if p.Command == nil {
		return false
	}
	switch p.Command.Action {
	case "status", "logs", "list":
		return false
	}
	return true
}

// Plan is the stage that plans each call once, every call, read-only ones
// too: a Gated tool prepares it; a tool that cannot describe itself gets a
// stand-in plan that runs it as is, its Acts from the tool's own claim
// (ReadOnlyCall), as do the opaque plans of MCP tools and web_fetch. The
// plan travels down the chain in Call.Plan, so the gate decides from it,
// the recorders read its paths and the executor runs it (Chain). A call
// that cannot go ahead returns its error result unasked. mark (may be nil)
// sees every plan before anything reads it (the undo store marks the files
// whose prior content it cannot keep). A call that has a plan already keeps
// it.
func Plan(mark func(*Prepared)) Middleware {
	return func(t Tool, next Handler) Handler {
		return func(ctx context.Context, call Call) (Result, error) {
			if call.Plan == nil {
				p, res, ok := PlanCall(ctx, t, call.Args)
				if !ok {
					return res, nil
				}
				if mark != nil {
					mark(p)
				}
				call.Plan = p
			}
			return next(ctx, call)
		}
	}
}

// PlanCall plans one call of t as the plan stage does (policy checks plan
// the same way, so they decide what the gate would).
func PlanCall(ctx context.Context, t Tool, args json.RawMessage) (*Prepared, Result, bool) {
	gated, ok := t.(Gated)
	if !ok {
		return &Prepared{Acts: !ReadOnlyCall(t, args), Run: func(ctx context.Context, _ protocol.Decision) (Result, error) {
			return t.Run(ctx, args)
		}}, Result{}, true
	}
	p, res, ok := gated.Prepare(ctx, args)
	if !ok {
		return nil, res, false
	}
	if p.Mcp != nil || p.Web != nil {
		p.Acts = p.Acts || !ReadOnlyCall(t, args)
	}
	return p, Result{}, true
}

type turnKey struct{}

// WithTurn records the turn a call belongs to in ctx, so middleware can tie
// its events to the turn.
func WithTurn(ctx context.Context, turnID string) context.Context {
	return context.WithValue(ctx, turnKey{}, turnID)
}

// TurnFrom returns the turn recorded in ctx, or "".
func TurnFrom(ctx context.Context) string {
	s, _ := ctx.Value(turnKey{}).(string)
	return s
}

package tools

import (
	"context"
	"encoding/json"
	"sync/atomic"

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
	// Command describes a bash call; the gate parses Command.Command.
	Command *protocol.CommandPreview
	// Mcp describes a call of an MCP server's tool, and ArgsText its
	// arguments for display; a session rule covers the tool by name.
	Mcp      *protocol.McpPreview
	ArgsText string
	// Run runs the call as prepared, once. d is the approving decision (of
	// kind once, session or partial). A file that no longer has the hash it
	// had when prepared is refused with changed_since_preview, not
	// overwritten. The gate does not call it: it hands the prepared call on
	// (WithPrepared) and the chain's executor runs it.
	Run func(ctx context.Context, d protocol.Decision) (Result, error)
}

type preparedKey struct{}

type handedOn struct {
	callID, tool string
	p            *Prepared
	d            protocol.Decision
	taken        atomic.Bool
}

// WithPrepared hands p, approved by d, down the chain: the executor at its
// end runs p.Run(ctx, d) for call instead of the tool's Run. The hand-off
// is for this call only and is taken once, so a tool that runs calls of its
// own with ctx (a child session) does not run it again.
func WithPrepared(ctx context.Context, call Call, p *Prepared, d protocol.Decision) context.Context {
	return context.WithValue(ctx, preparedKey{}, &handedOn{callID: call.ID, tool: call.Name, p: p, d: d})
}

// takePrepared returns the prepared call handed on for call, once.
func takePrepared(ctx context.Context, call Call) (*Prepared, protocol.Decision, bool) {
	h, ok := ctx.Value(preparedKey{}).(*handedOn)
	if !ok || h.p == nil || h.callID != call.ID || h.tool != call.Name || !h.taken.CompareAndSwap(false, true) {
		return nil, protocol.Decision{}, false
	}
	return h.p, h.d, true
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

package acp

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"

	sdk "github.com/coder/acp-go-sdk"

	"gatehouse/internal/agent"
	"gatehouse/internal/approval"
	"gatehouse/internal/attach"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime"
	"gatehouse/internal/session"
	"gatehouse/internal/sessionhost"
)

// Options configure Serve.
type Options struct {
	// Host opens the sessions (the host recipe: log, checkpoints, sandbox,
	// MCP servers, agents).
	Host *sessionhost.Host
	// Model streams the model's answers.
	Model agent.Model
	// Mode is the approval mode every session starts in.
	Mode approval.Mode
	// MaxSteps bounds the model requests of one prompt.
	MaxSteps int
	// Logger hears what goes wrong beside the protocol (nil: none).
	Logger *slog.Logger
	// Version is reported in initialize (empty: the build's).
	Version string
	// Vision says whether the model sees (nil: it does not): an image
	// block for a model that cannot see is refused with the reason.
	Vision attach.Vision
}

// Serve speaks ACP on in/out until the editor closes in or ctx ends; then
// every session is closed (its processes stopped, its log saved).
func Serve(ctx context.Context, o Options, in io.Reader, out io.Writer) error {
	if o.Model == nil || o.Host == nil {
		return errors.New("acp: no model or host")
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	a := &Agent{o: o, sessions: map[string]*acpSession{}, ready: make(chan struct{})}
	// The connection's own diagnostics go to slog.Default (Run points it
	// at stderr): the SDK's SetLogger races with the reader it has started.
	// That reader may call a handler before the constructor returns: they
	// reach the connection through peer, which waits for it.
	a.conn = sdk.NewAgentSideConnection(a, out, in)
	close(a.ready)
	select {
	case <-a.conn.Done():
	case <-ctx.Done():
	}
	a.closeAll()
	return nil
}

// Agent implements the SDK's agent side over runtime sessions.
type Agent struct {
	o     Options
	conn  *sdk.AgentSideConnection // set before ready is closed
	ready chan struct{}
	// elicit: the editor renders form elicitations (ask_user asks there).
	elicit atomic.Bool

	mu       sync.Mutex
	sessions map[string]*acpSession
	closed   bool
}

var (
	_ sdk.Agent       = (*Agent)(nil)
	_ sdk.AgentLoader = (*Agent)(nil)
)

// peer is the connection to the editor.
func (a *Agent) peer() *sdk.AgentSideConnection {
	<-a.ready
	return a.conn
}

func (a *Agent) closeAll() {
	a.mu.Lock()
	a.closed = true
	all := a.sessions
	a.sessions = map[string]*acpSession{}
	a.mu.Unlock()
	for _, s := range all {
		s.close()
	}
}

// Initialize implements sdk.Agent: loading sessions is supported; prompts
// are text (and resource links, given to the model as text); no images,
// audio or embedded context, which the runtime cannot use today.
func (a *Agent) Initialize(ctx context.Context, p sdk.InitializeRequest) (sdk.InitializeResponse, error) {
	v := sdk.ProtocolVersion(sdk.ProtocolVersionNumber)
	if p.ProtocolVersion < v {
		v = p.ProtocolVersion
	}
	if e := p.ClientCapabilities.Elicitation; e != nil && e.Form != nil {
		a.elicit.Store(true)
	}
	version := a.o.Version
	if version == "" {
		version = buildVersion()
	}
	return sdk.InitializeResponse{
		ProtocolVersion: v,
		AgentCapabilities: sdk.AgentCapabilities{LoadSession: true, McpCapabilities: sdk.McpCapabilities{Http: true},
			PromptCapabilities: sdk.PromptCapabilities{Image: true}},
		AgentInfo:   &sdk.Implementation{Name: "gatehouse", Title: sdk.Ptr("Gatehouse"), Version: version},
		AuthMethods: []sdk.AuthMethod{},
	}, nil
}

// Authenticate implements sdk.Agent: no method is offered.
func (a *Agent) Authenticate(context.Context, sdk.AuthenticateRequest) (sdk.AuthenticateResponse, error) {
	return sdk.AuthenticateResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodAuthenticate)
}

// NewSession implements sdk.Agent: cwd becomes the session's workspace,
// through the same boundary as the window's.
func (a *Agent) NewSession(ctx context.Context, p sdk.NewSessionRequest) (sdk.NewSessionResponse, error) {
	s, err := a.open(ctx, p.Cwd, "", p.McpServers, experimental(p.Meta))
	if err != nil {
		return sdk.NewSessionResponse{}, err
	}
	// The skills as the editor's commands, once the session is its: after
	// the answer (an editor knows the session from it).
	go s.sendCommands(context.WithoutCancel(ctx))
	return sdk.NewSessionResponse{SessionId: sdk.SessionId(s.rt.ID()), Modes: s.modes()}, nil
}

// LoadSession implements sdk.AgentLoader: the saved session of cwd comes
// back, its transcript replayed as session/update notifications before the
// answer.
func (a *Agent) LoadSession(ctx context.Context, p sdk.LoadSessionRequest) (sdk.LoadSessionResponse, error) {
	if a.o.Host.Sessions() == nil {
		return sdk.LoadSessionResponse{}, invalidParams("sessions are not saved here (no data folder)")
	}
	a.mu.Lock()
	_, open := a.sessions[string(p.SessionId)]
	a.mu.Unlock()
	if open {
		return sdk.LoadSessionResponse{}, invalidParams("session %s is already open", p.SessionId)
	}
	s, err := a.open(ctx, p.Cwd, string(p.SessionId), p.McpServers, experimental(p.Meta))
	if err != nil {
		return sdk.LoadSessionResponse{}, err
	}
	for _, u := range replay(s, s.past) {
		if err := a.peer().SessionUpdate(ctx, sdk.SessionNotification{SessionId: p.SessionId, Update: u}); err != nil {
			return sdk.LoadSessionResponse{}, err
		}
	}
	s.past = nil
	return sdk.LoadSessionResponse{Modes: s.modes()}, nil
}

// open assembles a runtime session in folder cwd: new when id is "", else
// the saved session id of that folder.
func (a *Agent) open(ctx context.Context, cwd, id string, servers []sdk.McpServer, teams bool) (*acpSession, error) {
	if !filepath.IsAbs(cwd) {
		return nil, invalidParams("cwd %q is not an absolute path", cwd)
	}
	ws, err := runtime.OpenWorkspace(cwd)
	if err != nil {
		return nil, invalidParams("%v", err)
	}
	editor, err := editorServers(servers)
	if err != nil {
		return nil, err
	}
	resume := id != ""
	if !resume {
		id = session.NewID()
	}
	s := &acpSession{a: a, id: id, ws: ws, calls: map[string]*callInfo{}}
	s.mode.Store(a.o.Mode)
	opened, err := a.o.Host.Open(sessionhost.Spec{ID: id, Resume: resume, Workspace: ws, Model: a.o.Model, Sink: s,
		Mode: s.currentMode, Gateway: s.gateway, Asker: asker{s}, MaxSteps: a.o.MaxSteps, MCPServers: editor, MCPWait: ctx, CanSee: a.canSee(),
		Teams: teams})
	switch {
	case errors.Is(err, sessionhost.ErrMCPConfig):
		return nil, invalidParams("%v", err)
	case err != nil && resume:
		return nil, invalidParams("%v", err)
	case err != nil:
		return nil, internalError("%v", err)
	}
	s.rt, s.past = opened, opened.Past
	a.mu.Lock()
	defer a.mu.Unlock()
	switch {
	case a.closed:
		s.close()
		return nil, internalError("the connection is closing")
	case a.sessions[id] != nil: // loaded twice at once
		s.close()
		return nil, invalidParams("session %s is already open", id)
	}
	a.sessions[id] = s
	return s, nil
}

func (a *Agent) session(id sdk.SessionId) (*acpSession, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.sessions[string(id)]
	if s == nil {
		return nil, invalidParams("unknown session %q: create it with session/new or load it with session/load", id)
	}
	return s, nil
}

// Prompt implements sdk.Agent: one turn of the session. A prompt arriving
// while another runs cancels that one (the SDK cancels its context) and
// runs after it stopped.
func (a *Agent) Prompt(ctx context.Context, p sdk.PromptRequest) (sdk.PromptResponse, error) {
	s, err := a.session(p.SessionId)
	if err != nil {
		return sdk.PromptResponse{}, err
	}
	prompt, err := a.promptOf(ctx, p.Prompt)
	if err != nil {
		return sdk.PromptResponse{}, err
	}
	s.turn.Lock()
	defer s.turn.Unlock()
	if ctx.Err() != nil {
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, nil
	}
	prompt.Text = s.withSkill(prompt.Text)
	out, err := s.rt.RunPrompt(ctx, prompt)
	s.flush() // every update of the turn goes out before the answer
	if err != nil {
		return sdk.PromptResponse{}, internalError("%v", err)
	}
	resp := sdk.PromptResponse{StopReason: sdk.StopReasonEndTurn, Usage: tokenUsage(out.Usage)}
	switch out.Reason {
	case protocol.StopCancelled:
		resp.StopReason = sdk.StopReasonCancelled
	case protocol.StopMaxSteps:
		resp.StopReason = sdk.StopReasonMaxTurnRequests
	case protocol.StopBlockedByApproval:
		s.send(context.WithoutCancel(ctx), sdk.UpdateAgentMessageText(blockedMessage(out.Blocked)))
	case protocol.StopBudgetExhausted:
		s.send(context.WithoutCancel(ctx), sdk.UpdateAgentMessageText(budgetMessage(out.Budget)))
		if out.Budget != nil && (out.Budget.Limit == protocol.LimitSessionTokens || out.Budget.Limit == protocol.LimitDayTokens) {
			resp.StopReason = sdk.StopReasonMaxTokens
		}
	case protocol.StopError:
		msg := "the turn failed"
		if out.Err != nil {
			msg = out.Err.Error()
		}
		return sdk.PromptResponse{}, internalError("%s", msg)
	}
	return resp, nil
}

// buildVersion is the binary's module version, else its commit, else "dev".
func buildVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			return s.Value[:12]
		}
	}
	return "dev"
}

// budgetMessage is the last message of a turn a budget limit stopped,
// naming the limit.
func budgetMessage(b *protocol.BudgetStop) string {
	if b == nil {
		return "\n\nStopped: a budget limit was reached."
	}
	return "\n\nStopped: " + b.Message + "."
}

// blockedMessage is the last message of a turn a rejection stopped.
func blockedMessage(b *protocol.Blocked) string {
	if b == nil {
		return "\n\nStopped: a call was blocked by approval."
	}
	msg := fmt.Sprintf("\n\nStopped: %s was blocked by approval", b.Tool)
	if b.Note != "" {
		msg += " (" + b.Note + ")"
	}
	return msg + "."
}

func tokenUsage(u protocol.Usage) *sdk.Usage {
	if u.TotalTokens == 0 {
		return nil
	}
	return &sdk.Usage{InputTokens: int(u.PromptTokens), OutputTokens: int(u.CompletionTokens),
		TotalTokens: int(u.TotalTokens), CachedReadTokens: sdk.Ptr(int(u.CachedTokens))}
}

// canSee is the sessions' Spec.CanSee (nil when no Vision was given).
func (a *Agent) canSee() func() bool {
	if a.o.Vision == nil {
		return nil
	}
	return sessionhost.CanSee(a.o.Vision)
}

// promptOf is the prompt as the model reads it: text blocks as they are,
// resource links as a mention of their URI, image blocks as images
// (prepared and saved as the window's attachments are; refused with the
// reason when the model cannot see). Anything else was not offered in
// initialize and is refused.
func (a *Agent) promptOf(ctx context.Context, blocks []sdk.ContentBlock) (agent.Prompt, error) {
	var parts []string
	var p agent.Prompt
	at := &attach.Attacher{Store: attach.StoreIn(a.o.Host.Env().DataDir), Vision: a.o.Vision}
	for _, b := range blocks {
		switch {
		case b.Text != nil:
			parts = append(parts, b.Text.Text)
		case b.ResourceLink != nil:
			parts = append(parts, "@"+b.ResourceLink.Uri)
		case b.Image != nil:
			data, err := base64.StdEncoding.DecodeString(b.Image.Data)
			if err != nil {
				return p, invalidParams("an image block's data is not base64: %v", err)
			}
			im, err := at.AddBytes(ctx, "", data)
			if err != nil {
				return p, invalidParams("%v", err)
			}
			p.Images = append(p.Images, im)
		default:
			return p, invalidParams("only text, images and resource links can be sent to Gatehouse")
		}
	}
	p.Text = strings.Join(parts, "\n")
	if strings.TrimSpace(p.Text) == "" && len(p.Images) == 0 {
		return p, invalidParams("the prompt is empty")
	}
	return p, nil
}

// Cancel implements sdk.Agent. The SDK has already cancelled the running
// prompt's context; this also stops the turn of a session the SDK does not
// know is running.
func (a *Agent) Cancel(ctx context.Context, p sdk.CancelNotification) error {
	a.mu.Lock()
	s := a.sessions[string(p.SessionId)]
	a.mu.Unlock()
	if s != nil {
		s.rt.Cancel()
	}
	return nil
}

// SetSessionMode implements sdk.Agent: plan, manual, safe or auto, from the next
// call on.
func (a *Agent) SetSessionMode(ctx context.Context, p sdk.SetSessionModeRequest) (sdk.SetSessionModeResponse, error) {
	s, err := a.session(p.SessionId)
	if err != nil {
		return sdk.SetSessionModeResponse{}, err
	}
	m, err := approval.ParseMode(string(p.ModeId))
	if err != nil {
		return sdk.SetSessionModeResponse{}, invalidParams("%v", err)
	}
	s.mode.Store(m)
	return sdk.SetSessionModeResponse{}, nil
}

// CloseSession implements sdk.Agent (not advertised): the session stops.
func (a *Agent) CloseSession(ctx context.Context, p sdk.CloseSessionRequest) (sdk.CloseSessionResponse, error) {
	a.mu.Lock()
	s := a.sessions[string(p.SessionId)]
	delete(a.sessions, string(p.SessionId))
	a.mu.Unlock()
	if s == nil {
		return sdk.CloseSessionResponse{}, invalidParams("unknown session %q", p.SessionId)
	}
	s.close()
	return sdk.CloseSessionResponse{}, nil
}

// ListSessions implements sdk.Agent: not offered.
func (a *Agent) ListSessions(context.Context, sdk.ListSessionsRequest) (sdk.ListSessionsResponse, error) {
	return sdk.ListSessionsResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionList)
}

// ResumeSession implements sdk.Agent: not offered (session/load is).
func (a *Agent) ResumeSession(context.Context, sdk.ResumeSessionRequest) (sdk.ResumeSessionResponse, error) {
	return sdk.ResumeSessionResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionResume)
}

// SetSessionConfigOption implements sdk.Agent: there are none.
func (a *Agent) SetSessionConfigOption(context.Context, sdk.SetSessionConfigOptionRequest) (sdk.SetSessionConfigOptionResponse, error) {
	return sdk.SetSessionConfigOptionResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionSetConfigOption)
}

func invalidParams(format string, a ...any) error {
	return &sdk.RequestError{Code: -32602, Message: fmt.Sprintf(format, a...)}
}

func internalError(format string, a ...any) error {
	return &sdk.RequestError{Code: -32603, Message: fmt.Sprintf(format, a...)}
}

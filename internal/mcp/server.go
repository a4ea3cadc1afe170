package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"gatehouse/internal/protocol"
	"gatehouse/internal/syncbuf"
	"gatehouse/internal/tools"
)

// State is where a server is in its life.
type State = protocol.McpState

const (
	StateStarting = protocol.McpStarting
	StateReady    = protocol.McpReady
	StateFailed   = protocol.McpFailed
	StateDisabled = protocol.McpDisabled
	StateStopped  = protocol.McpStopped
)

// stderrLines is how many of a failed server's last stderr lines are kept
// for the panel and the model.
const stderrLines = 20

// ToolInfo describes one of a server's tools for the UI and `mcp list`.
type ToolInfo = protocol.McpTool

// Status is a server as the panel shows it.
type Status = protocol.McpServer

// server is one configured server and its connection.
type server struct {
	name, slug, source string
	m                  *Manager
	stderr             *syncbuf.Tail

	mu       sync.Mutex
	cfg      ServerConfig
	state    State
	err      string
	oauth    bool
	all      []*Tool      // every tool the server lists
	visible  []tools.Tool // the enabled ones, handed out by Tools
	sess     *sdk.ClientSession
	cmd      *exec.Cmd
	gen      uint64
	walls    string     // Confinement.Walls the running process started under
	wallsMu  sync.Mutex // one check (and restart) of the walls at a time
	cancel   context.CancelFunc
	settled  chan struct{} // closed when the current start attempt ends
	closed   bool
	closeErr error
	calls    map[*inflight]struct{} // tool calls running, for questions (elicit.go)

	listMu    sync.Mutex      // one refresh of the resources or prompts at a time: the last one listed wins
	resources []*sdk.Resource // listed once ready and on list_changed (resources.go)
	prompts   []*sdk.Prompt   // likewise (prompts.go)
}

func newServer(m *Manager, e Entry, slug string) *server {
	s := &server{name: e.Name, slug: slug, source: e.Source, m: m, cfg: e.Config, stderr: syncbuf.NewTail(16 << 10)}
	s.state = StateStopped
	if e.Config.Disabled {
		s.state = StateDisabled
	}
	s.settled = make(chan struct{})
	close(s.settled)
	return s
}

// start connects in the background; a disabled server only says so.
func (s *server) start() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.gen++
	if s.cfg.Disabled {
		s.state, s.err = StateDisabled, ""
		s.setTools(nil)
		s.mu.Unlock()
		s.m.changed()
		return
	}
	gen := s.gen
	ctx, cancel := context.WithCancel(context.Background())
	settled := make(chan struct{})
	s.cancel, s.settled = cancel, settled
	s.state, s.err, s.oauth = StateStarting, "", false
	s.setTools(nil)
	cfg := s.cfg
	s.stderr.Reset()
	s.mu.Unlock()
	s.m.changed()
	go func() {
		defer close(settled)
		defer cancel()
		s.run(ctx, gen, cfg)
	}()
}

func (s *server) run(ctx context.Context, gen uint64, cfg ServerConfig) {
	cfg, err := s.m.launchConfig(cfg)
	if err != nil {
		s.fail(gen, err.Error())
		return
	}
	tr, cmd, walls, err := s.m.transport(s.source, cfg, s.stderr)
	if err != nil {
		s.fail(gen, err.Error())
		return
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "gatehouse", Version: s.m.opts.Version}, &sdk.ClientOptions{
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
			go s.refresh(gen)
		},
		ResourceListChangedHandler: func(context.Context, *sdk.ResourceListChangedRequest) {
			go s.refreshResources(context.Background(), gen)
		},
		PromptListChangedHandler: func(context.Context, *sdk.PromptListChangedRequest) {
			go s.refreshPrompts(context.Background(), gen)
		},
		// Setting it declares the elicitation capability (form mode).
		ElicitationHandler:          s.elicit,
		ProgressNotificationHandler: s.progress,
	})
	if s.m.opts.Workspace != "" {
		client.AddRoots(&sdk.Root{URI: fileURI(s.m.opts.Workspace), Name: "workspace"})
	}
	ictx, cancel := context.WithTimeout(ctx, s.m.initTimeout())
	defer cancel()
	cs, err := client.Connect(ictx, tr, nil)
	var list []*sdk.Tool
	if err == nil {
		list, err = listTools(ictx, cs)
	}
	if err != nil {
		if cs != nil {
			closeSession(cs, cmd)
		} else {
			killGroup(cmd)
		}
		s.fail(gen, s.explain(err, ictx, cfg))
		return
	}
	s.mu.Lock()
	if s.gen != gen {
		s.mu.Unlock()
		closeSession(cs, cmd)
		return
	}
	s.sess, s.cmd, s.state, s.walls = cs, cmd, StateReady, walls
	s.setTools(list)
	s.resources, s.prompts = nil, nil
	s.mu.Unlock()
	s.m.changed()
	go func() {
		_ = cs.Wait()
		s.ended(gen)
	}()
	s.lists(ctx, gen)
}

// explain turns a start failure into a sentence for the panel.
func (s *server) explain(err error, ictx context.Context, cfg ServerConfig) string {
	msg := err.Error()
	switch {
	case errors.Is(ictx.Err(), context.DeadlineExceeded):
		msg = fmt.Sprintf("did not finish starting within %s", s.m.initTimeout())
	case errors.Is(err, exec.ErrNotFound) || strings.Contains(msg, "executable file not found"):
		msg = fmt.Sprintf("cannot start %q: program not found", cfg.Command)
	case cfg.Remote() && (strings.Contains(msg, "401") || strings.Contains(strings.ToLower(msg), "unauthorized")):
		s.mu.Lock()
		s.oauth = true
		s.mu.Unlock()
		msg = "the server asks for sign-in (401): OAuth-only servers are not supported; if it accepts a token, put it in headers (Authorization: Bearer …)"
	case errors.Is(err, sdk.ErrConnectionClosed) || strings.Contains(msg, "EOF") || strings.Contains(msg, "closed"):
		msg = "the server closed the connection while starting: " + msg
	}
	return msg
}

// fail marks attempt gen failed, unless a later attempt replaced it.
func (s *server) fail(gen uint64, msg string) {
	s.mu.Lock()
	if s.gen != gen {
		s.mu.Unlock()
		return
	}
	s.state, s.err = StateFailed, msg
	s.setTools(nil)
	s.mu.Unlock()
	s.m.changed()
}

// ended runs when the connection of attempt gen ended: the server exited,
// printed something that is not JSON-RPC, or was closed by us.
func (s *server) ended(gen uint64) {
	s.mu.Lock()
	if s.gen != gen || s.state != StateReady {
		s.mu.Unlock()
		return
	}
	sess, cmd := s.sess, s.cmd
	s.sess, s.cmd = nil, nil
	s.state, s.err = StateFailed, "the server's connection ended (the process exited or wrote something that is not MCP)"
	s.setTools(nil)
	s.mu.Unlock()
	closeSession(sess, cmd)
	s.m.changed()
}

// refresh re-lists the tools after the server said they changed.
func (s *server) refresh(gen uint64) {
	sess := s.session()
	if sess == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.m.initTimeout())
	defer cancel()
	list, err := listTools(ctx, sess)
	if err != nil {
		return
	}
	s.mu.Lock()
	if s.gen != gen || s.state != StateReady {
		s.mu.Unlock()
		return
	}
	s.setTools(list)
	s.mu.Unlock()
	s.m.changed()
}

// stop ends the current attempt (waiting for a start in progress) and
// leaves the server in state st. No process of it is left when it returns.
func (s *server) stop(st State) {
	s.mu.Lock()
	s.gen++
	if s.cancel != nil {
		s.cancel()
	}
	settled := s.settled
	sess, cmd := s.sess, s.cmd
	s.sess, s.cmd = nil, nil
	s.state, s.err = st, ""
	s.setTools(nil)
	s.mu.Unlock()
	<-settled
	if sess != nil {
		closeSession(sess, cmd)
	}
}

// setTools rebuilds the tool lists; s.mu is held.
func (s *server) setTools(list []*sdk.Tool) {
	if list == nil {
		s.all, s.visible = nil, nil
		return
	}
	names := make([]string, len(list))
	for i, t := range list {
		names[i] = t.Name
	}
	surface := toolNames(s.slug, names)
	s.all = make([]*Tool, len(list))
	for i, t := range list {
		s.all[i] = newTool(s, t, surface[i])
	}
	s.filter()
}

// filter recomputes the visible tools from the disabled list; s.mu is held.
func (s *server) filter() {
	s.visible = nil
	for _, t := range s.all {
		if !slices.Contains(s.cfg.DisabledTools, t.remote) {
			s.visible = append(s.visible, t)
		}
	}
}

// current is the session to call now: a workspace's own server started
// under walls that moved since (a deny written, a denied file made) is
// restarted first under the new ones, so it never reads what the user's
// policy denies now; nil when the server is not ready.
func (s *server) current(ctx context.Context) *sdk.ClientSession {
	if !fromWorkspace(s.source) || s.m.opts.Confine == nil {
		return s.session()
	}
	s.wallsMu.Lock()
	defer s.wallsMu.Unlock()
	s.mu.Lock()
	ready, walls := s.state == StateReady, s.walls
	s.mu.Unlock()
	if !ready || s.m.opts.Confine(s.m.opts.Workspace).Walls == walls {
		return s.session()
	}
	s.stop(StateStopped)
	s.start()
	if s.settle(ctx) != nil {
		return nil
	}
	return s.session()
}

// settle waits until the current start attempt ended, or ctx did.
func (s *server) settle(ctx context.Context) error {
	s.mu.Lock()
	settled := s.settled
	s.mu.Unlock()
	select {
	case <-settled:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *server) session() *sdk.ClientSession {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != StateReady {
		return nil
	}
	return s.sess
}

func (s *server) config() ServerConfig {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cfg
}

func (s *server) status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := Status{
		Name: s.name, Source: s.source, State: s.state, Error: s.err,
		Remote: s.cfg.Remote(), Target: s.cfg.CommandLine(), NeedsOAuth: s.oauth,
		TrustReadOnlyHints: s.cfg.TrustReadOnlyHints,
		Unconfined:         !s.cfg.Remote() && !fromWorkspace(s.source), Browser: s.cfg.Browser(), AppProxy: s.cfg.AppProxy,
	}
	if s.state == StateFailed {
		st.Stderr = strings.Join(s.stderr.Lines(stderrLines), "\n")
	}
	for _, t := range s.all {
		st.Tools = append(st.Tools, ToolInfo{
			Name: t.remote, SurfaceName: t.spec.Name, Description: t.spec.Description,
			ReadOnlyHint: t.hint, Enabled: !slices.Contains(s.cfg.DisabledTools, t.remote),
		})
	}
	return st
}

// listTools pages through tools/list.
func listTools(ctx context.Context, cs *sdk.ClientSession) ([]*sdk.Tool, error) {
	var out []*sdk.Tool
	params := &sdk.ListToolsParams{}
	for range 100 {
		res, err := cs.ListTools(ctx, params)
		if err != nil {
			return nil, fmt.Errorf("listing tools: %w", err)
		}
		out = append(out, res.Tools...)
		if res.NextCursor == "" {
			return out, nil
		}
		params = &sdk.ListToolsParams{Cursor: res.NextCursor}
	}
	return out, nil
}

// closeSession closes the connection (stdin first, as the protocol asks)
// and kills the server's process group once the SDK has tried politely, or
// at once when it takes too long; it returns when the process is reaped.
func closeSession(cs *sdk.ClientSession, cmd *exec.Cmd) {
	done := make(chan struct{})
	go func() {
		if cs != nil {
			_ = cs.Close()
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(3 * terminateDuration):
		killGroup(cmd)
		<-done
	}
	killGroup(cmd) // what the leader left behind (npx's node, a shell's children)
}

func fileURI(dir string) string {
	return "file://" + strings.ReplaceAll(dir, " ", "%20")
}

package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"gatehouse/internal/syncbuf"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// State is where a server is in its life, as the panel shows it.
type State string

const (
	StateStopped  State = "stopped"
	StateStarting State = "starting"
	StateReady    State = "ready"
	// StateCrashed: it exited on its own; it starts again on the next need
	// after a backoff.
	StateCrashed State = "crashed"
	// StateFailed: it cannot start (not installed, no sandbox).
	StateFailed State = "failed"
)

// Status is one server as the panel shows it.
type Status struct {
	Name     string `json:"name"`
	Command  string `json:"command"`
	State    State  `json:"state"`
	Error    string `json:"error,omitempty"`
	Restarts int    `json:"restarts"`
	// Confined: it runs under the session's sandbox.
	Confined bool `json:"confined"`
}

// Backoff of restarts after crashes: the first restart may be at once, each
// further one waits twice as long, up to maxBackoff; a server that ran a
// minute starts the count again.
const (
	firstBackoff = 250 * time.Millisecond
	maxBackoff   = 30 * time.Second
	healthyAfter = time.Minute
)

// server is one configured language server and, while it runs, its
// process, documents and diagnostics.
type server struct {
	cfg ServerConfig
	m   *Manager

	// check is held by whoever sets documents and reads diagnostics for a
	// comparison (an edit's before and after, an overlay), so that an
	// overlay never shows up in an edit's comparison.
	check sync.Mutex

	mu       sync.Mutex
	state    State
	err      string
	restarts int
	backoff  time.Duration
	retryAt  time.Time
	started  time.Time
	confined bool
	walls    string // Launched.Walls of the running process
	conn     *Conn
	proc     *exec.Cmd
	stop     func() // ends the process tree
	exited   chan struct{}
	closed   bool
	docs     map[string]*document // by absolute path
	diags    map[string]*published
	seq      uint64
	news     chan struct{} // closed and replaced at each publish
	stderr   *syncbuf.Tail
}

// document is a file the server has open, and what it holds of it.
type document struct {
	uri     string
	version int
	text    string
}

// published is the last diagnostics the server published for a document.
type published struct {
	version *int
	seq     uint64
	at      time.Time
	list    []lspDiagnostic
}

func newServer(m *Manager, cfg ServerConfig) *server {
	return &server{cfg: cfg, m: m, state: StateStopped, news: make(chan struct{}), stderr: syncbuf.NewTail(8 << 10)}
}

func (s *server) status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Status{Name: s.cfg.Name, Command: s.cfg.Command, State: s.state, Error: s.err, Restarts: s.restarts, Confined: s.confined}
}

// ensure starts the server when it is not running (a crashed one once its
// backoff passed) and returns its connection.
func (s *server) ensure(ctx context.Context) (*Conn, error) {
	walls := ""
	if s.m.opts.Walls != nil {
		walls = s.m.opts.Walls()
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, errors.New("the session's language servers are stopped")
	}
	if s.conn != nil && s.state == StateReady {
		c := s.conn
		if s.m.opts.Walls == nil || s.walls == walls {
			s.mu.Unlock()
			return c, nil
		}
		// The walls moved (a deny was added, a denied file appeared): the
		// process keeps the ones it started under, so it ends and a new
		// one starts under these.
		stop, exited := s.stop, s.exited
		s.conn, s.proc, s.stop, s.docs, s.diags = nil, nil, nil, nil, nil
		s.state = StateStopped
		s.mu.Unlock()
		c.Close()
		end(stop, exited)
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return nil, errors.New("the session's language servers are stopped")
		}
	}
	if s.state == StateCrashed && time.Now().Before(s.retryAt) {
		err := fmt.Errorf("%s crashed (%s); it restarts in %s", s.cfg.Name, s.err, time.Until(s.retryAt).Round(10*time.Millisecond))
		s.mu.Unlock()
		return nil, err
	}
	if s.state == StateCrashed {
		s.restarts++
	}
	s.state, s.err = StateStarting, ""
	s.mu.Unlock()
	s.m.changed()
	conn, err := s.start(ctx)
	s.mu.Lock()
	if err != nil {
		if s.state != StateCrashed {
			s.state, s.err = StateFailed, err.Error()
		}
		s.mu.Unlock()
		s.m.changed()
		return nil, err
	}
	s.mu.Unlock()
	s.m.changed()
	return conn, nil
}

func (s *server) start(ctx context.Context) (*Conn, error) {
	l, err := s.m.launch(s.cfg)
	if err != nil {
		return nil, err
	}
	cmd := l.Cmd
	cmd.Stderr = s.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot start %s: %w", s.cfg.Name, err)
	}
	exited := make(chan struct{})
	conn := NewConn(stdout, stdin, s.handle)
	s.mu.Lock()
	s.conn, s.proc, s.stop, s.exited = conn, cmd, l.Stop, exited
	s.confined, s.walls, s.started = l.Confined, l.Walls, time.Now()
	s.docs, s.diags = map[string]*document{}, map[string]*published{}
	s.mu.Unlock()
	go s.watch(conn, cmd, exited)

	ictx, cancel := context.WithTimeout(ctx, s.m.opts.StartTimeout)
	defer cancel()
	root := s.m.root
	params := map[string]any{
		"processId":        nil,
		"clientInfo":       map[string]string{"name": "gatehouse"},
		"rootUri":          fileURI(root),
		"rootPath":         root,
		"workspaceFolders": []map[string]string{{"uri": fileURI(root), "name": "workspace"}},
		"capabilities": map[string]any{
			"workspace": map[string]any{
				"configuration":          true,
				"workspaceFolders":       true,
				"didChangeWatchedFiles":  map[string]any{"dynamicRegistration": true},
				"didChangeConfiguration": map[string]any{"dynamicRegistration": true},
			},
			"textDocument": map[string]any{
				"synchronization":    map[string]any{"didSave": true},
				"publishDiagnostics": map[string]any{"versionSupport": true, "relatedInformation": false},
				"definition":         map[string]any{"linkSupport": false},
				"references":         map[string]any{},
			},
			"window": map[string]any{"workDoneProgress": false},
		},
	}
	if len(s.cfg.Options) > 0 {
		params["initializationOptions"] = s.cfg.Options
	}
	if err := conn.Call(ictx, "initialize", params, nil); err != nil {
		s.kill()
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("%s timed out starting (no answer to initialize)", s.cfg.Name)
		}
		return nil, fmt.Errorf("%s did not initialize: %w%s", s.cfg.Name, err, s.stderrNote())
	}
	if err := conn.Notify("initialized", map[string]any{}); err != nil {
		s.kill()
		return nil, err
	}
	s.mu.Lock()
	if s.conn == conn {
		s.state = StateReady
	}
	s.mu.Unlock()
	return conn, nil
}

// watch waits for the process to end; when nobody stopped it, it crashed.
func (s *server) watch(conn *Conn, cmd *exec.Cmd, exited chan struct{}) {
	err := cmd.Wait()
	close(exited)
	conn.Close()
	<-conn.Done()
	s.mu.Lock()
	if s.conn != conn {
		s.mu.Unlock()
		return
	}
	stop := s.stop
	s.conn, s.proc, s.stop = nil, nil, nil
	s.docs, s.diags = nil, nil
	if stop != nil {
		defer stop() // what it left running
	}
	if s.closed {
		s.state = StateStopped
		s.mu.Unlock()
		return
	}
	why := "exited"
	if err != nil {
		why = err.Error()
	}
	if t := lastLines(s.stderr, 3); t != "" {
		why += ": " + t
	}
	if time.Since(s.started) > healthyAfter {
		s.backoff = 0
	}
	if s.backoff == 0 {
		s.backoff = firstBackoff
	} else {
		s.backoff = min(s.backoff*2, maxBackoff)
	}
	s.state, s.err, s.retryAt = StateCrashed, why, time.Now().Add(s.backoff)
	s.bumpLocked()
	s.mu.Unlock()
	s.m.changed()
}

func (s *server) stderrNote() string {
	if t := lastLines(s.stderr, 3); t != "" {
		return " (" + t + ")"
	}
	return ""
}

// kill ends the process tree and waits for it.
func (s *server) kill() {
	s.mu.Lock()
	stop, exited := s.stop, s.exited
	s.mu.Unlock()
	end(stop, exited)
}

// end ends a process tree by stop (nil: nothing to end) and waits, at most
// 5 s, until exited is closed (nil: nothing to wait for).
func end(stop func(), exited <-chan struct{}) {
	if stop != nil {
		stop()
	}
	if exited != nil {
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
		}
	}
}

// close stops the server for good: shutdown and exit when it answers
// quickly, else its process tree is killed.
func (s *server) close() {
	s.mu.Lock()
	s.closed = true
	conn, exited, stop := s.conn, s.exited, s.stop
	s.mu.Unlock()
	if conn != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		if conn.Call(ctx, "shutdown", nil, nil) == nil {
			_ = conn.Notify("exit", nil)
		}
		cancel()
		select {
		case <-exited:
		case <-time.After(300 * time.Millisecond):
		}
	}
	if stop != nil {
		stop() // what it started too, even when it exited
	}
	s.kill()
	s.mu.Lock()
	s.state = StateStopped
	s.mu.Unlock()
}

// handle answers the server's requests and takes its diagnostics.
func (s *server) handle(method string, params json.RawMessage) (any, error) {
	switch method {
	case "textDocument/publishDiagnostics":
		var p publishParams
		if json.Unmarshal(params, &p) == nil {
			s.mu.Lock()
			if s.diags != nil {
				s.seq++
				s.diags[p.URI] = &published{version: p.Version, seq: s.seq, at: time.Now(), list: p.Diagnostics}
				s.bumpLocked()
			}
			s.mu.Unlock()
			s.m.published()
		}
		return nil, nil
	case "workspace/configuration":
		var p struct {
			Items []json.RawMessage `json:"items"`
		}
		_ = json.Unmarshal(params, &p)
		out := make([]any, len(p.Items))
		for i := range out {
			out[i] = map[string]any{}
		}
		return out, nil
	case "workspace/workspaceFolders":
		return []map[string]string{{"uri": fileURI(s.m.root), "name": "workspace"}}, nil
	case "window/workDoneProgress/create", "client/registerCapability", "client/unregisterCapability",
		"window/showMessageRequest", "window/showDocument", "workspace/diagnostic/refresh",
		"workspace/semanticTokens/refresh", "workspace/inlayHint/refresh", "workspace/codeLens/refresh":
		return nil, nil
	case "workspace/applyEdit":
		// Language servers never write here: the user approves every edit.
		return map[string]any{"applied": false, "failureReason": "edits are made through the approval dialog"}, nil
	}
	if strings.HasPrefix(method, "$/") || strings.HasPrefix(method, "window/") || strings.HasPrefix(method, "telemetry/") {
		return nil, nil
	}
	return nil, fmt.Errorf("method %s is not supported", method)
}

func (s *server) bumpLocked() {
	close(s.news)
	s.news = make(chan struct{})
}

// lastLines is up to n last non-empty lines of t, each trimmed, joined
// by " | ".
func lastLines(t *syncbuf.Tail, n int) string {
	lines := t.Lines(n)
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return strings.Join(lines, " | ")
}

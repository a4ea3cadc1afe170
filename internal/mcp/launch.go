package mcp

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"gatehouse/internal/proc"
	"gatehouse/internal/sandbox"
	"gatehouse/internal/syncbuf"
)

// Confinement is how a server is confined: the supervisor helper's path
// and the sandbox policy, or why it cannot be (helper missing, no
// Landlock).
type Confinement struct {
	Helper string
	Policy *sandbox.Policy
	// Why it cannot be confined, when Helper or Policy is missing.
	Why string
	// Walls names what Policy hides from reading (sandbox.Policy.Walls): a
	// server started under other walls is restarted before its next use.
	Walls string
}

// Where servers run, so that none is made to run the workspace's code
// unconfined:
//
//   - the user's servers (their config, files given on the command line)
//     start in a neutral folder of their own, empty and outside the
//     workspace, so `npx -y pkg` does not find a node_modules/pkg, and
//     `python -m mod` does not import a mod/, that the workspace ships (nor
//     read its .npmrc); the workspace reaches them only as the client's
//     root;
//   - servers from the workspace's own list (.gatehouse/mcp.json) start in
//     the workspace, and only confined under the supervisor helper, as
//     commands are (Options.Confine); when they cannot be, they do not start.

// launcher holds what a manager's servers share: the neutral folder and the
// lifeline of confined servers.
type launcher struct {
	mu       sync.Mutex
	neutral  string
	lifeR    *os.File // handed to each confined server's helper (fd 3)
	lifeW    *os.File // held until Close: EOF tells the helpers the app is gone
	closedUp bool
}

// neutralDir makes (once) and returns the user's servers' working folder.
func (l *launcher) neutralDir() (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.neutral == "" {
		d, err := os.MkdirTemp("", "gatehouse-mcp-")
		if err != nil {
			return "", err
		}
		l.neutral = d
	}
	return l.neutral, nil
}

// lifeline returns the read end of the lifeline, made on first use.
func (l *launcher) lifeline() (*os.File, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closedUp {
		return nil, errors.New("the servers are closing")
	}
	if l.lifeR == nil {
		r, w, err := os.Pipe()
		if err != nil {
			return nil, err
		}
		l.lifeR, l.lifeW = r, w
	}
	return l.lifeR, nil
}

// close ends the lifeline and removes the neutral folder; call after every
// server stopped.
func (l *launcher) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closedUp = true
	if l.lifeW != nil {
		l.lifeW.Close()
		l.lifeR.Close()
		l.lifeR, l.lifeW = nil, nil
	}
	if l.neutral != "" {
		os.RemoveAll(l.neutral)
		l.neutral = ""
	}
}

// fromWorkspace reports whether an entry came from the workspace's own list.
func fromWorkspace(source string) bool { return source == WorkspaceConfig }

// transport returns the SDK transport for the server of entry source with
// config c, and the command it will start (nil for a URL).
func (m *Manager) transport(source string, c ServerConfig, tail *syncbuf.Tail) (sdk.Transport, *exec.Cmd, string, error) {
	env := m.env()
	if env == nil {
		env = os.Environ()
	}
	if c.Remote() {
		tr, _ := newTransport(c, "", env, tail)
		return tr, nil, "", nil
	}
	if !fromWorkspace(source) {
		dir, err := m.launch.neutralDir()
		if err != nil {
			return nil, nil, "", fmt.Errorf("no folder to start the server in: %w", err)
		}
		tr, cmd := newTransport(c, dir, env, tail)
		return tr, cmd, "", nil
	}
	conf := Confinement{Why: "nothing here can confine it"}
	if m.opts.Confine != nil {
		conf = m.opts.Confine(m.opts.Workspace)
	}
	if conf.Helper == "" || conf.Policy == nil {
		return nil, nil, "", fmt.Errorf("servers of %s run only confined by the sandbox, and it is not available: %s", WorkspaceConfig, conf.Why)
	}
	life, err := m.launch.lifeline()
	if err != nil {
		return nil, nil, "", err
	}
	cmd := newCommand(c, m.opts.Workspace, env, tail)
	// The helper execs a path: look the program up as a shell would, in the
	// server's PATH.
	prog, err := lookPath(c.Command, cmd.Env, m.opts.Workspace)
	if err != nil {
		return nil, nil, "", err
	}
	sup, err := proc.HelperCommand(conf.Helper, conf.Policy, terminateDuration*3, append([]string{prog}, c.Args...), life)
	if err != nil {
		return nil, nil, "", err
	}
	sup.Dir, sup.Env, sup.Stderr, sup.WaitDelay = cmd.Dir, cmd.Env, cmd.Stderr, cmd.WaitDelay
	return &sdk.CommandTransport{Command: sup, TerminateDuration: terminateDuration}, sup, conf.Walls, nil
}

// lookPath finds prog in the PATH of env (relative names against dir).
func lookPath(prog string, env []string, dir string) (string, error) {
	if filepath.IsAbs(prog) {
		return prog, nil
	}
	if filepath.Base(prog) != prog { // ./server.js, bin/server
		return filepath.Join(dir, prog), nil
	}
	path := ""
	for _, kv := range env {
		if len(kv) > 5 && kv[:5] == "PATH=" {
			path = kv[5:]
		}
	}
	for _, d := range filepath.SplitList(path) {
		if d == "" || !filepath.IsAbs(d) {
			continue // never the current folder: the workspace
		}
		p := filepath.Join(d, prog)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("cannot start %q: %w", prog, exec.ErrNotFound)
}

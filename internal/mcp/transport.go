package mcp

import (
	"errors"
	"net/http"
	"os"
	"os/exec"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"gatehouse/internal/proc"
	"gatehouse/internal/syncbuf"
)

// How long a closing stdio server gets after its stdin closes, and after
// SIGTERM, before its whole process group is killed; and how long Wait
// waits for output pipes a grandchild still holds.
const (
	terminateDuration = 300 * time.Millisecond
	waitDelay         = time.Second
)

// newCommand builds the server's command: its own process group (so closing
// it reaches the grandchildren npx and shells leave), the
// workspace as its folder, the environment without Gatehouse's secrets plus
// the server's env, and stderr into tail.
func newCommand(c ServerConfig, dir string, base []string, tail *syncbuf.Tail) *exec.Cmd {
	cmd := exec.Command(c.Command, c.Args...)
	cmd.Dir = dir
	env := proc.SanitizeEnv(base)
	for k, v := range c.Env {
		env = append(env, k+"="+v)
	}
	cmd.Env = env
	cmd.Stderr = tail
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = waitDelay
	return cmd
}

// killGroup kills the process group of cmd, when it was started, and waits
// (boundedly) until no process of it is left; a group already gone is not
// an error.
func killGroup(cmd *exec.Cmd) {
	if cmd == nil || cmd.Process == nil {
		return
	}
	pgid := cmd.Process.Pid
	if supervised(cmd) && endHelper(cmd) == nil {
		// Killing the helper would orphan the server: the helper kills
		// its tree, then exits (its group then empties).
		deadline := time.Now().Add(2 * time.Second)
		for syscall.Kill(-pgid, 0) == nil && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
	}
	err := syscall.Kill(-pgid, syscall.SIGKILL)
	if err != nil {
		if !errors.Is(err, syscall.ESRCH) {
			_ = cmd.Process.Kill()
		}
		return
	}
	// SIGKILL is delivered asynchronously: wait for the group to empty, so a
	// closed server has no process left when Close returns.
	deadline := time.Now().Add(2 * time.Second)
	for syscall.Kill(-pgid, 0) == nil && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
}

// headerTransport adds the server's configured headers (a bearer token) to
// every request: the streamable transport takes headers only this way.
type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(h.headers) > 0 {
		r = r.Clone(r.Context())
		for k, v := range h.headers {
			r.Header.Set(k, v)
		}
	}
	return h.base.RoundTrip(r)
}

// newTransport returns the SDK transport for c, and the command it will
// start (nil for a URL).
func newTransport(c ServerConfig, dir string, base []string, tail *syncbuf.Tail) (sdk.Transport, *exec.Cmd) {
	if c.Remote() {
		hc := &http.Client{Transport: headerTransport{base: http.DefaultTransport, headers: c.Headers}}
		return &sdk.StreamableClientTransport{Endpoint: c.URL, HTTPClient: hc, MaxRetries: -1}, nil
	}
	if base == nil {
		base = os.Environ()
	}
	cmd := newCommand(c, dir, base, tail)
	return &sdk.CommandTransport{Command: cmd, TerminateDuration: terminateDuration}, cmd
}

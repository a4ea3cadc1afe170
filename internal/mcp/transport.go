package mcp

import (
	"net/http"
	"os"
	"os/exec"
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

// newCommand builds the server's command: its own process group where
// there are (ownGroup: so closing it reaches the grandchildren npx and
// shells leave), the
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
	ownGroup(cmd)
	cmd.WaitDelay = waitDelay
	return cmd
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

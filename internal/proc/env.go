package proc

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// SanitizeEnv returns env without the variables no process started for the
// model may see: the API key (OPENAI_API_KEY), every GATEHOUSE_* variable
// (Gatehouse's own settings), and the names in extra. Later duplicates of a
// name win, as in exec.
func SanitizeEnv(env []string, extra ...string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if name == "OPENAI_API_KEY" || strings.HasPrefix(name, "GATEHOUSE_") || containsName(extra, name) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

func containsName(names []string, n string) bool {
	for _, x := range names {
		if x == n {
			return true
		}
	}
	return false
}

// DefaultLoginEnvTimeout bounds the run of the login shell.
const DefaultLoginEnvTimeout = 5 * time.Second

// LoginEnv is the environment of the user's login shell (PATH as in their
// terminal), read once and cached. A shell that fails, prints nothing usable
// or takes longer than Timeout (a slow profile) gives the fallback instead.
type LoginEnv struct {
	Shell    string        // empty: $SHELL, else /bin/sh
	Timeout  time.Duration // 0: DefaultLoginEnvTimeout
	Fallback []string      // nil: os.Environ()
	Strip    []string      // extra names to remove (see SanitizeEnv)

	once sync.Once
	env  []string
	err  error
}

// marker separates what a profile prints from the environment dump.
const envMarker = "__GATEHOUSE_ENV_BEGIN__"

// Environ returns the sanitized login environment; the first call runs the
// shell (bounded by Timeout), concurrent and later calls share its result.
func (l *LoginEnv) Environ() []string {
	l.once.Do(l.load)
	return append([]string(nil), l.env...)
}

// Err tells why the fallback was used (nil when the login shell answered).
func (l *LoginEnv) Err() error {
	l.once.Do(l.load)
	return l.err
}

func (l *LoginEnv) load() {
	env, err := l.read()
	if err != nil {
		env = l.Fallback
		if env == nil {
			env = os.Environ()
		}
	}
	l.env, l.err = SanitizeEnv(env, l.Strip...), err
}

func (l *LoginEnv) read() ([]string, error) {
	shell, timeout := l.Shell, l.Timeout
	if shell == "" {
		shell = os.Getenv("SHELL")
	}
	if shell == "" {
		shell = "/bin/sh"
	}
	if timeout <= 0 {
		timeout = DefaultLoginEnvTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, shell, "-l", "-i", "-c", "echo "+envMarker+"; env -0")
	cmd.SysProcAttr = loginAttrs() // no terminal: -i must not take over ours
	cmd.Cancel = func() error { killGroups([]group{{pgid: cmd.Process.Pid}}, 0); return nil }
	cmd.WaitDelay = time.Second
	out, err := cmd.Output()
	if ctx.Err() != nil {
		return nil, &Error{"login_env_timeout", "login shell " + shell + " did not answer within " + timeout.String()}
	}
	if err != nil {
		return nil, err
	}
	return parseEnvDump(out)
}

// parseEnvDump reads NUL-separated NAME=value pairs after the marker line.
func parseEnvDump(out []byte) ([]string, error) {
	i := bytes.Index(out, []byte(envMarker+"\n"))
	if i < 0 {
		return nil, &Error{"login_env_unreadable", "login shell printed no environment"}
	}
	var env []string
	for _, kv := range bytes.Split(out[i+len(envMarker)+1:], []byte{0}) {
		if s := string(kv); strings.Contains(s, "=") && !strings.HasPrefix(s, "=") {
			env = append(env, s)
		}
	}
	if len(env) == 0 {
		return nil, &Error{"login_env_unreadable", "login shell printed an empty environment"}
	}
	return env, nil
}

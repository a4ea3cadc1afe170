package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"gatehouse/internal/approval"
)

// maxOutput caps what is kept of a hook's stdout and of its stderr.
const maxOutput = 64 << 10

// Input is what a hook reads on stdin, as Claude Code sends it: the common
// fields, then the event's own (empty ones left out).
type Input struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	HookEventName  Event  `json:"hook_event_name"`
	PermissionMode string `json:"permission_mode"`

	ToolName     string         `json:"tool_name,omitempty"`
	ToolInput    map[string]any `json:"tool_input,omitempty"`
	ToolUseID    string         `json:"tool_use_id,omitempty"`
	ToolResponse any            `json:"tool_response,omitempty"`
	Error        string         `json:"error,omitempty"`

	Prompt         string `json:"prompt,omitempty"`
	StopHookActive *bool  `json:"stop_hook_active,omitempty"`
	Source         string `json:"source,omitempty"`  // SessionStart: startup, resume, clear, compact
	Reason         string `json:"reason,omitempty"`  // SessionEnd
	Trigger        string `json:"trigger,omitempty"` // PreCompact: manual, auto
	Message        string `json:"message,omitempty"` // Notification
	AgentID        string `json:"agent_id,omitempty"`
	AgentType      string `json:"agent_type,omitempty"`
}

// PermissionMode is Claude Code's name for a Gatehouse approval mode.
func PermissionMode(mode string) string {
	switch mode {
	case "plan":
		return "plan"
	case "auto":
		return "bypassPermissions"
	case "safe":
		return "default"
	case "manual":
		return "default"
	}
	return "default"
}

// Launcher prepares a workspace hook's command (sh -c, in dir, with env)
// confined as the session's commands are.
type Launcher func(h Hook, dir string, env []string) (Launched, error)

// Launched is a prepared hook: the command to start, how to kill it with
// everything it started, and what to release once it ended.
type Launched struct {
	Cmd           *exec.Cmd
	Kill, Release func()
}

// Runner runs hooks for one session.
type Runner struct {
	Hooks []Hook
	// ProjectDir is the workspace: the hooks' folder and
	// CLAUDE_PROJECT_DIR / GATEHOUSE_PROJECT_DIR.
	ProjectDir     string
	SessionID      string
	TranscriptPath string
	// Mode returns the approval mode in effect (Gatehouse's name).
	Mode func() string
	// Environ is the environment hooks start from (nil: the app's);
	// secrets are taken out of it (Env).
	Environ func() []string
	// Workspace (may be nil) returns the workspace's own hooks in force,
	// asked before every run: none until the user trusts them, none again
	// once they (or a script they name) change, until trusted anew. They
	// are marked Confined and run only through Confine.
	Workspace func() []Hook
	// Agent (may be nil) returns the hooks of the agent definition this
	// runner's session is a child of, asked before every run (a
	// workspace's definition: none until trusted for hooks, as Workspace).
	// They run for that child's calls only, beside the others.
	Agent func() []Hook
	// Off (may be nil) returns the IDs of the hooks turned off now
	// (Settings → Hooks), read before every run: turning one off reaches
	// the sessions already open.
	Off func() []string
	// Confine starts a Confined hook (nil: none can run; each fails
	// saying so, which blocks where a failure blocks).
	Confine Launcher
	// Writes (may be nil) brackets each hook run: what the workspace
	// shows changed until done is called is the agent's, as a command's
	// writes are (the file tracker's ShellStarted), so undo covers a
	// formatter hook's rewrite.
	Writes func(ctx context.Context) (done func())
	// Audit (may be nil) hears every tool event's hook decisions, for the
	// audit log (By: ByHook). It must not block.
	Audit func(approval.AuditEntry)
}

// all are the hooks in force now: the user's, then the workspace's, then
// the agent definition's, those turned off now (Off) marked disabled.
func (r *Runner) all() []Hook {
	hs := r.Hooks
	for _, more := range []func() []Hook{r.Workspace, r.Agent} {
		if more != nil {
			if ws := more(); len(ws) > 0 {
				hs = append(hs[:len(hs):len(hs)], ws...)
			}
		}
	}
	if r.Off != nil {
		hs = Disable(hs, r.Off())
	}
	return hs
}

// Ran is one hook's run.
type Ran struct {
	Hook     Hook          `json:"-"`
	Name     string        `json:"name"`
	Source   string        `json:"source"`
	ToolName string        `json:"toolName,omitempty"` // the view it saw
	ExitCode int           `json:"exitCode"`
	Stdout   string        `json:"stdout,omitempty"`
	Stderr   string        `json:"stderr,omitempty"`
	Duration time.Duration `json:"durationMs"`
	// Failed says why the hook did not answer (could not start, timed
	// out, killed, an exit code other than 0 and 2); "" when it did.
	Failed string `json:"failed,omitempty"`
	// Verdict is what its answer came to (Answer), in words.
	Verdict string `json:"verdict"`
	answer  answer
	view    View
}

// Env is env without secrets (the model's key, OPENAI_*, GATEHOUSE_*,
// *_API_KEY) and with the project variables set to dir.
func Env(env []string, dir string) []string {
	out := make([]string, 0, len(env)+2)
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		u := strings.ToUpper(k)
		if strings.HasPrefix(u, "OPENAI_") || strings.HasPrefix(u, "GATEHOUSE_") || strings.HasSuffix(u, "_API_KEY") ||
			u == "CLAUDE_PROJECT_DIR" {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "CLAUDE_PROJECT_DIR="+dir, "GATEHOUSE_PROJECT_DIR="+dir)
}

// runOne runs hook h with in on stdin.
func (r *Runner) runOne(ctx context.Context, h Hook, in Input) Ran {
	ran := Ran{Hook: h, Name: h.Command, Source: h.Source, ToolName: in.ToolName}
	body, err := json.Marshal(in)
	if err != nil {
		ran.Failed = err.Error()
		return ran
	}
	environ := os.Environ
	if r.Environ != nil {
		environ = r.Environ
	}
	env := Env(environ(), r.ProjectDir)
	ctx, cancel := context.WithTimeout(ctx, h.Timeout)
	defer cancel()
	var cmd *exec.Cmd
	var kill func()
	if h.Confined {
		if r.Confine == nil {
			ran.Failed, ran.ExitCode = "could not start: a workspace's hooks run only confined, and nothing confines them here", -1
			return ran
		}
		l, err := r.Confine(h, r.ProjectDir, env)
		if err != nil {
			ran.Failed, ran.ExitCode = "could not start: "+err.Error(), -1
			return ran
		}
		defer l.Release()
		cmd, kill = l.Cmd, l.Kill
	} else {
		cmd = exec.Command("sh", "-c", h.Command)
		cmd.Dir, cmd.Env = r.ProjectDir, env
		ownGroup(cmd)
		kill = func() { killGroup(cmd) }
	}
	cmd.WaitDelay = time.Second
	var stdout, stderr capped
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(body), &stdout, &stderr
	if r.Writes != nil {
		defer r.Writes(ctx)()
	}
	start := time.Now()
	if err = cmd.Start(); err == nil {
		stop := context.AfterFunc(ctx, kill)
		err = cmd.Wait()
		stop()
	}
	ran.Duration = time.Since(start)
	ran.Stdout, ran.Stderr = stdout.String(), stderr.String()
	var exit *exec.ExitError
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		ran.Failed = fmt.Sprintf("timed out after %s", h.Timeout)
		ran.ExitCode = -1
	case ctx.Err() != nil:
		ran.Failed = "cancelled"
		ran.ExitCode = -1
	case errors.As(err, &exit):
		ran.ExitCode = exit.ExitCode()
		if ran.ExitCode == -1 {
			ran.Failed = "killed (" + exit.String() + ")"
		} else if ran.ExitCode != 0 && ran.ExitCode != 2 {
			ran.Failed = fmt.Sprintf("exited with %d", ran.ExitCode)
		}
	case err != nil:
		ran.Failed = "could not start: " + err.Error()
		ran.ExitCode = -1
	}
	return ran
}

// runAll runs every hook of hooks, in parallel, each on its input.
func (r *Runner) runAll(ctx context.Context, jobs []job) []Ran {
	out := make([]Ran, len(jobs))
	var wg sync.WaitGroup
	for i, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = r.runOne(ctx, j.hook, j.in)
			out[i].view = j.view
		}()
	}
	wg.Wait()
	return out
}

type job struct {
	hook Hook
	in   Input
	view View
}

// capped keeps the first maxOutput bytes written to it.
type capped struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := maxOutput - c.b.Len(); room > 0 {
		c.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (c *capped) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.b.String()
}

var _ io.Writer = (*capped)(nil)

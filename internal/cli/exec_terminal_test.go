package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/sessionhost"
)

// answerOnTerminal runs exec with a terminal on stdin and stderr (a pty)
// and types answer when the question appears. It returns the exit code,
// stdout, and what the terminal showed.
func answerOnTerminal(t *testing.T, env sessionhost.Env, answer string, args ...string) (int, string, string) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	var (
		mu     sync.Mutex
		screen bytes.Buffer
	)
	go func() {
		buf := make([]byte, 4096)
		typed := false
		for {
			n, err := ptmx.Read(buf)
			mu.Lock()
			screen.Write(buf[:n])
			ask := !typed && strings.Contains(screen.String(), "[n] reject")
			mu.Unlock()
			if ask {
				typed = true
				ptmx.Write([]byte(answer + "\n"))
			}
			if err != nil {
				return
			}
		}
	}()
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	code := Exec(ctx, args, env, tty, &out, tty)
	mu.Lock()
	defer mu.Unlock()
	return code, out.String(), screen.String()
}

// With a terminal, --approval safe asks there before apply_patch; "y"
// runs it. The question never reaches --json stdout.
func TestExecAsksOnTheTerminal(t *testing.T) {
	patch := `{"patch":"*** Begin Patch\n*** Add File: hello.txt\n+hi\n*** End Patch"}`
	for _, c := range []struct {
		answer  string
		code    int
		written bool
	}{{"y", ExitCompleted, true}, {"n\nnot now", ExitBlockedByApproval, false}} {
		t.Run(c.answer[:1], func(t *testing.T) {
			responses := []llmtest.Response{{ToolCalls: []llmtest.ToolCall{{ID: "call_1", Name: "apply_patch", Arguments: llmtest.Text(patch)}}}}
			if c.written {
				responses = append(responses, llmtest.Response{Text: llmtest.Text("Done.")})
			}
			srv := llmtest.Start(t, llmtest.Script{Responses: responses})
			ws := t.TempDir()
			code, stdout, screen := answerOnTerminal(t, testEnv(t, nil), c.answer, "--workspace", ws, "--prompt", "add hello",
				"--base-url", srv.URL, "--model", "fake-model", "--json")
			if code != c.code {
				t.Fatalf("exit %d, want %d; terminal:\n%s", code, c.code, screen)
			}
			if !strings.Contains(screen, "hello.txt") {
				t.Errorf("the terminal did not show the change:\n%s", screen)
			}
			if strings.Contains(stdout, "[y]") {
				t.Errorf("the question leaked into stdout")
			}
			if !c.written && !strings.Contains(stdout, "[approval-rejected] not now") {
				t.Errorf("the model does not read the note:\n%s", stdout)
			}
			_, err := os.Stat(filepath.Join(ws, "hello.txt"))
			if written := err == nil; written != c.written {
				t.Errorf("hello.txt written: %v, want %v", written, c.written)
			}
		})
	}
}

// TestExecEscapesModelText: a command carrying control sequences (erase
// the line, move up, draw another) reaches the terminal escaped, with the
// warnings of its real steps; the model's text on stdout is escaped too.
func TestExecEscapesModelText(t *testing.T) {
	cmd := "echo safe\x1b[2K\x1b[1A\r$ ls; rm -rf ~/x"
	args := `{"action":"exec","command":` + strconvQuote(cmd) + `}`
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "call_1", Name: "bash", Arguments: llmtest.Text(args)}}},
	}})
	ws := t.TempDir()
	_, _, screen := answerOnTerminal(t, testEnv(t, nil), "n\n", "--workspace", ws, "--prompt", "go",
		"--base-url", srv.URL, "--model", "fake-model", "--approval", "safe")
	if strings.Contains(screen, "\x1b[2K") || strings.Contains(screen, "\x1b[1A") {
		t.Fatalf("the command's control sequences reached the terminal:\n%q", screen)
	}
	for _, want := range []string{`echo safe\e[2K\e[1A\r$ ls; rm -rf ~/x`, "deletes files"} {
		if !strings.Contains(screen, want) {
			t.Errorf("no %q on the terminal:\n%q", want, screen)
		}
	}
	srv = llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: llmtest.Text("All clear.\x1b[2J\x1b[H")}}})
	_, stdout, _ := answerOnTerminal(t, testEnv(t, nil), "", "--workspace", ws, "--prompt", "go",
		"--base-url", srv.URL, "--model", "fake-model", "--approval", "safe")
	if strings.Contains(stdout, "\x1b") || !strings.Contains(stdout, `All clear.\e[2J\e[H`) {
		t.Errorf("the model's text reached stdout raw: %q", stdout)
	}
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

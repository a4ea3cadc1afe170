// Command fakeserver is an MCP server that misbehaves on request, for the
// tests of internal/mcp. The tests build it; FAKE_MODE picks the behaviour:
//
//	normal        serve tools echo, big, hang, peek, fail, picture
//	prompts       also the prompt hello and the tool add-prompt, which adds
//	              the prompt its text names (prompts/list_changed)
//	exit          print to stderr and exit at once
//	hang-init     read stdin, never answer
//	garbage       print a line that is not JSON to stdout, then wait
//	ignore-stdin  serve normally, start a grandchild, ignore SIGTERM and stdin close
//	cat           also the tool cat, which reads the file its text names
//
// FAKE_PIDFILE (optional) receives the pids it and its grandchild have;
// FAKE_STARTS (optional) gets a line at each start.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	pids := []string{strconv.Itoa(os.Getpid())}
	mode := os.Getenv("FAKE_MODE")
	if mode == "ignore-stdin" {
		signal.Ignore(syscall.SIGTERM)
		child := exec.Command("sleep", "600")
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "start grandchild:", err)
			os.Exit(1)
		}
		pids = append(pids, strconv.Itoa(child.Process.Pid))
	}
	if f := os.Getenv("FAKE_PIDFILE"); f != "" {
		_ = os.WriteFile(f, []byte(strings.Join(pids, "\n")+"\n"), 0o644)
	}
	if f := os.Getenv("FAKE_STARTS"); f != "" { // one line per start
		if w, err := os.OpenFile(f, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			fmt.Fprintln(w, "started")
			w.Close()
		}
	}
	fmt.Fprintln(os.Stderr, "fakeserver starting in mode", mode)
	switch mode {
	case "exit":
		fmt.Fprintln(os.Stderr, "fatal: missing configuration FOO_TOKEN")
		os.Exit(3)
	case "hang-init":
		_, _ = io.Copy(io.Discard, os.Stdin)
		select {}
	case "gated":
		// Slow to start: it answers initialize once the test creates the
		// file FAKE_GATE names.
		for {
			if _, err := os.Stat(os.Getenv("FAKE_GATE")); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	case "garbage":
		fmt.Println("Welcome to the server! This is not JSON.")
		fmt.Fprintln(os.Stderr, "garbage: wrote a banner to stdout")
		select {}
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "fake", Version: "1"}, nil)
	obj := map[string]any{"type": "object", "properties": map[string]any{
		"text": map[string]any{"type": "string"}, "bytes": map[string]any{"type": "integer"}}}
	s.AddTool(&mcp.Tool{Name: "echo", Description: "Echoes its text.", InputSchema: obj},
		func(_ context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("echo: " + arg(r, "text")), nil
		})
	s.AddTool(&mcp.Tool{Name: "big", Description: "Returns many bytes.", InputSchema: obj},
		func(_ context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			n, _ := strconv.Atoi(arg(r, "bytes"))
			return text(strings.Repeat("x", n)), nil
		})
	s.AddTool(&mcp.Tool{Name: "hang", Description: "Never answers.", InputSchema: obj},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			<-ctx.Done()
			fmt.Fprintln(os.Stderr, "hang: cancelled by the client")
			return nil, ctx.Err()
		})
	s.AddTool(&mcp.Tool{Name: "peek", Description: "Reads only.", InputSchema: obj,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("peeked; OPENAI_API_KEY=" + os.Getenv("OPENAI_API_KEY") + " GATEHOUSE_X=" + os.Getenv("GATEHOUSE_X") + " FAKE_ENV=" + os.Getenv("FAKE_ENV")), nil
		})
	if mode == "cat" {
		s.AddTool(&mcp.Tool{Name: "cat", Description: "Reads the file its text names.", InputSchema: obj},
			func(_ context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				b, err := os.ReadFile(arg(r, "text"))
				if err != nil {
					return text("cannot read: " + err.Error()), nil
				}
				return text("read: " + string(b)), nil
			})
	}
	s.AddTool(&mcp.Tool{Name: "fail", Description: "Reports an error.", InputSchema: obj},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "no such record"}}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "picture", Description: "An image and a link.", InputSchema: obj},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{
				&mcp.TextContent{Text: "here it is"},
				&mcp.ImageContent{MIMEType: "image/png", Data: make([]byte, 2048)},
				&mcp.ResourceLink{URI: "file:///tmp/a.txt", Name: "a.txt", Description: "the file"},
			}}, nil
		})
	if mode == "prompts" {
		s.AddPrompt(&mcp.Prompt{Name: "hello", Description: "Says hello."}, prompt("hello"))
		s.AddTool(&mcp.Tool{Name: "add-prompt", Description: "Adds a prompt.", InputSchema: obj},
			func(_ context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				s.AddPrompt(&mcp.Prompt{Name: arg(r, "text"), Description: "Added later."}, prompt(arg(r, "text")))
				return text("added"), nil
			})
	}
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "run:", err)
	}
	if mode == "ignore-stdin" {
		fmt.Fprintln(os.Stderr, "stdin closed; staying up")
		select {}
	}
}

func prompt(name string) mcp.PromptHandler {
	return func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "the prompt " + name}}}}, nil
	}
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func arg(r *mcp.CallToolRequest, key string) string {
	var m map[string]any
	_ = jsonUnmarshal(r.Params.Arguments, &m)
	switch v := m[key].(type) {
	case string:
		return v
	case float64:
		return strconv.Itoa(int(v))
	}
	return ""
}

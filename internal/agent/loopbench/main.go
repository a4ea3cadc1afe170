// Command loopbench measures the turn loop's own overhead: one turn of 100
// tool calls (small read_files) against a zero-latency fake model, its total
// time minus the time spent inside the tools, beside bare openai-go
// streaming the same script (same requests, same results) without the loop,
// in the same run. It prints the medians and the difference. Then it
// times read_file calls with five matching no-op hooks against none (the
// hooks' own cost per call, issue 40).
//
//	loopbench [-calls 100] [-runs 5]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"

	"gatehouse/internal/agent"
	"gatehouse/internal/events"
	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/proc"
	"gatehouse/internal/protocol"
	"gatehouse/internal/session"
	"gatehouse/internal/tools"
	"gatehouse/internal/tools/builtin"
	"gatehouse/internal/workspace"
)

// targetMs is the bound on the loop's overhead for 100 calls.
const targetMs = 300

func main() {
	calls := flag.Int("calls", 100, "tool calls in the turn")
	runs := flag.Int("runs", 5, "runs of each side; the median is printed")
	flag.Parse()
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "OPENAI_") {
			os.Unsetenv(k)
		}
	}
	if err := run(*calls, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "loopbench:", err)
		os.Exit(1)
	}
}

type bench struct {
	ws      *workspace.Workspace
	router  *tools.Router
	procs   *proc.Registry
	script  llmtest.Script
	results map[string]string // call id → the read_file result the loop gets
	toolNs  atomic.Int64
}

func run(calls, runs int) error {
	dir, err := os.MkdirTemp("", "loopbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	b := &bench{results: map[string]string{}}
	for i := range calls {
		text := fmt.Sprintf("file %d\n%s", i, strings.Repeat("a line of a small file\n", 8))
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d.txt", i)), []byte(text), 0o644); err != nil {
			return err
		}
	}
	if b.ws, err = workspace.New(dir, workspace.Options{}); err != nil {
		return err
	}
	b.procs = proc.NewRegistry(proc.Options{})
	defer b.procs.Close()
	reg, err := builtin.Registry(b.ws, b.procs)
	if err != nil {
		return err
	}
	timing := func(_ tools.Tool, next tools.Handler) tools.Handler {
		return func(ctx context.Context, c tools.Call) (tools.Result, error) {
			start := time.Now()
			res, err := next(ctx, c)
			b.toolNs.Add(int64(time.Since(start)))
			return res, err
		}
	}
	b.router = tools.NewRouter(reg, tools.Policy{}, timing, tools.OutputCap(256<<10))
	for i := range calls {
		id := fmt.Sprintf("call_%03d", i)
		args := fmt.Sprintf(`{"path":"f%03d.txt"}`, i)
		b.script.Responses = append(b.script.Responses, llmtest.Response{
			ToolCalls: []llmtest.ToolCall{{ID: id, Name: "read_file", Arguments: llmtest.Text(args)}}})
		res, err := b.router.Run(context.Background(), tools.Call{ID: id, Name: "read_file", Args: json.RawMessage(args)})
		if err != nil || res.IsError {
			return fmt.Errorf("read_file %s: %v %s", args, err, res.Output)
		}
		b.results[id] = string(res.Output)
	}
	b.script.Responses = append(b.script.Responses, llmtest.Response{Text: llmtest.Text("All read.")})

	var loopNs, toolNs, netNs, bareNs []float64
	for r := range runs + 1 { // the first of each is a warm-up
		total, tool, err := b.loop()
		if err != nil {
			return err
		}
		bare, err := b.bare()
		if err != nil {
			return err
		}
		if r == 0 {
			continue
		}
		loopNs, toolNs, netNs, bareNs = append(loopNs, total), append(toolNs, tool), append(netNs, total-tool), append(bareNs, bare)
	}
	ms := func(ns float64) float64 { return ns / 1e6 }
	over := median(netNs) - median(bareNs)
	fmt.Printf("loop overhead: %d read_file calls, %d model requests, zero-latency fake model, median of %d runs\n",
		calls, calls+1, runs)
	fmt.Printf("  loop total            %8.1f ms\n", ms(median(loopNs)))
	fmt.Printf("  time in tools         %8.1f ms\n", ms(median(toolNs)))
	fmt.Printf("  loop minus tools      %8.1f ms\n", ms(median(netNs)))
	fmt.Printf("  bare openai-go        %8.1f ms\n", ms(median(bareNs)))
	verdict := "ok"
	if ms(over) > targetMs {
		verdict = "OVER TARGET"
	}
	fmt.Printf("  loop adds             %8.1f ms over %d calls (%.2f ms per call; target <= %d ms) %s\n",
		ms(over), calls, ms(over)/float64(calls), targetMs, verdict)
	return b.hooksBench(min(calls, 40), runs)
}

// loop runs one turn through the agent, the event bus and the session
// state (as the app does, minus the window and the log's fsync).
func (b *bench) loop() (totalNs, toolNs float64, err error) {
	srv := llmtest.StartUnchecked(b.script)
	defer srv.Close()
	client, err := llm.New(llm.Config{BaseURL: srv.URL, APIKey: "sk-bench", Model: "fake-model"})
	if err != nil {
		return 0, 0, err
	}
	state := session.NewState("bench", nil, nil)
	bus := events.New(events.Fanout(events.SinkFunc(func(protocol.Event) {}), state), events.Options{})
	defer bus.Close()
	a := agent.New(agent.Config{Model: client, Tools: b.router, Events: bus, SessionID: "bench",
		System: agent.SystemPrompt(b.ws.Root()), MaxSteps: len(b.script.Responses) + 1})
	b.toolNs.Store(0)
	start := time.Now()
	out := a.Run(context.Background(), "bench-t1", "Read every file.")
	total := time.Since(start)
	if out.Reason != protocol.StopCompleted {
		return 0, 0, fmt.Errorf("loop stopped: %s %v", out.Reason, out.Err)
	}
	if v := srv.Violations(); len(v) > 0 {
		return 0, 0, fmt.Errorf("loop: fake server: %v", v)
	}
	return float64(total), float64(b.toolNs.Load()), nil
}

// bare streams the same script with openai-go alone: the same messages,
// tool specs and results, no loop, no tools, no events.
func (b *bench) bare() (float64, error) {
	srv := llmtest.StartUnchecked(b.script)
	defer srv.Close()
	client := openai.NewClient(option.WithBaseURL(srv.URL+"/"), option.WithAPIKey("sk-bench"), option.WithMaxRetries(0))
	var specs []openai.ChatCompletionToolUnionParam
	for _, s := range b.router.Specs() {
		params := shared.FunctionParameters{}
		if err := json.Unmarshal(s.Parameters, &params); err != nil {
			return 0, err
		}
		specs = append(specs, openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name: s.Name, Description: openai.String(s.Description), Parameters: params}))
	}
	msgs := []openai.ChatCompletionMessageParamUnion{
		openai.SystemMessage(agent.SystemPrompt(b.ws.Root())), openai.UserMessage("Read every file."),
	}
	ctx := context.Background()
	start := time.Now()
	for step := 0; ; step++ {
		stream := client.Chat.Completions.NewStreaming(ctx, openai.ChatCompletionNewParams{
			Model: "fake-model", Messages: msgs, Tools: specs,
			StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
		})
		var acc openai.ChatCompletionAccumulator
		for stream.Next() {
			acc.AddChunk(stream.Current())
		}
		err := stream.Err()
		stream.Close()
		if err != nil {
			return 0, fmt.Errorf("bare: %w", err)
		}
		msg := acc.Choices[0].Message
		if len(msg.ToolCalls) == 0 {
			break
		}
		msgs = append(msgs, msg.ToParam())
		for _, tc := range msg.ToolCalls {
			msgs = append(msgs, openai.ToolMessage(b.results[tc.ID], tc.ID))
		}
	}
	total := time.Since(start)
	if v := srv.Violations(); len(v) > 0 {
		return 0, fmt.Errorf("bare: fake server: %v", v)
	}
	return float64(total), nil
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

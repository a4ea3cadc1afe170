// Command delegatebench measures what handing work to a subagent costs: a
// delegate_explore call whose child makes one tool call and answers (two
// model requests), beside the parent making the same two requests itself
// (one turn: read_file, then the answer), against a zero-latency fake
// model, interleaved in one run. It prints the medians and their ratio and
// fails above the bound.
//
//	delegatebench [-runs 21]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"gatehouse/internal/agents"
	"gatehouse/internal/approval"
	"gatehouse/internal/events"
	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime"
	"gatehouse/internal/workspace"
)

// bound is the limit on delegate time over the parent's own.
const bound = 1.2

func main() {
	runs := flag.Int("runs", 21, "runs of each side; the medians are compared")
	flag.Parse()
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "OPENAI_") {
			os.Unsetenv(k)
		}
	}
	if err := run(*runs); err != nil {
		fmt.Fprintln(os.Stderr, "delegatebench:", err)
		os.Exit(1)
	}
}

func script() llmtest.Script {
	return llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "k1", Name: "read_file", Arguments: llmtest.Text(`{"path":"a.txt"}`)}}},
		{Text: llmtest.Text("a.txt says hello")},
	}}
}

// open starts a session of ws against a fresh fake server playing s.
func open(ws *workspace.Workspace, s llmtest.Script) (*runtime.Session, *llmtest.Server, error) {
	srv := llmtest.StartUnchecked(s)
	client, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "fake-model"})
	if err != nil {
		srv.Close()
		return nil, nil, err
	}
	sess, err := runtime.New(runtime.Options{Workspace: ws, Model: client, NoWatch: true,
		Sink: events.SinkFunc(func(protocol.Event) {}), Mode: func() approval.Mode { return approval.Safe },
		Gateway: func(string, approval.Publisher) approval.Gateway { return approval.RejectAll{} }})
	if err != nil {
		srv.Close()
		return nil, nil, err
	}
	return sess, srv, nil
}

// direct times the parent's own turn of the two requests.
func direct(ws *workspace.Workspace) (time.Duration, error) {
	sess, srv, err := open(ws, script())
	if err != nil {
		return 0, err
	}
	defer srv.Close()
	defer sess.Close()
	t0 := time.Now()
	out, err := sess.Run(context.Background(), "what does a.txt say?")
	d := time.Since(t0)
	if err == nil && out.Reason != protocol.StopCompleted {
		err = fmt.Errorf("direct turn stopped %s", out.Reason)
	}
	return d, err
}

// delegated times one delegation to explore, as delegate_explore runs it:
// the child is built, makes the same two requests, and is closed.
func delegated(ws *workspace.Workspace) (time.Duration, error) {
	sess, srv, err := open(ws, script())
	if err != nil {
		return 0, err
	}
	defer srv.Close()
	defer sess.Close()
	m, err := agents.Attach(sess, agents.Config{Definitions: agents.Builtins()})
	if err != nil {
		return 0, err
	}
	t0 := time.Now()
	info, err := m.Delegate(context.Background(), "explore", "what does a.txt say?", "c1")
	d := time.Since(t0)
	if err == nil && (info.Status != string(protocol.StopCompleted) || info.Answer != "a.txt says hello") {
		err = fmt.Errorf("delegate ended %s: %q", info.Status, info.Answer)
	}
	return d, err
}

func run(runs int) error {
	dir, err := os.MkdirTemp("", "delegatebench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("hello\n"), 0o644); err != nil {
		return err
	}
	ws, err := workspace.New(dir, workspace.Options{})
	if err != nil {
		return err
	}
	// One of each first, untimed: connections, caches and code paths warm.
	if _, err := direct(ws); err != nil {
		return err
	}
	if _, err := delegated(ws); err != nil {
		return err
	}
	var ds, gs []time.Duration
	for i := 0; i < runs; i++ {
		d, err := direct(ws)
		if err != nil {
			return err
		}
		g, err := delegated(ws)
		if err != nil {
			return err
		}
		ds, gs = append(ds, d), append(gs, g)
	}
	md, mg := median(ds), median(gs)
	ratio := float64(mg) / float64(md)
	fmt.Printf("delegate (child: 1 tool call + answer, 2 requests): median %v over %d runs\n", mg.Round(time.Microsecond), runs)
	fmt.Printf("parent doing the same 2 requests itself:            median %v\n", md.Round(time.Microsecond))
	fmt.Printf("ratio %.2f× (bound %.1f×)\n", ratio, bound)
	if ratio > bound {
		return fmt.Errorf("delegating costs %.2f× the parent's own requests, over %.1f×", ratio, bound)
	}
	return nil
}

func median(xs []time.Duration) time.Duration {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

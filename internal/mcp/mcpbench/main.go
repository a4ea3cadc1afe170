// Command mcpbench measures what Gatehouse adds to an MCP tool call: 100
// echo calls through a session's router (policy, output cap, approval gate
// in auto, file-change recorder, the MCP provider's executor and result
// mapping) against the same 100 calls from a bare go-sdk client session to
// the same server, alternating runs in one process. Target: <= 1.2x.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"sort"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"gatehouse/internal/approval"
	"gatehouse/internal/events"
	"gatehouse/internal/mcp"
	"gatehouse/internal/proc"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime"
	"gatehouse/internal/tools"
	"gatehouse/internal/tools/builtin"
	"gatehouse/internal/watch"
)

func main() {
	server := flag.String("server", "", "the stdio server's command line (space-separated), e.g. node …/server-everything/dist/index.js stdio")
	calls := flag.Int("calls", 100, "echo calls per run")
	runs := flag.Int("runs", 7, "runs of each side (median reported)")
	flag.Parse()
	argv := strings.Fields(*server)
	if len(argv) == 0 {
		fail(errors.New("-server is required"))
	}
	ws, err := os.MkdirTemp("", "mcpbench-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(ws)

	bare, err := bareSession(argv)
	if err != nil {
		fail(fmt.Errorf("bare go-sdk client: %w", err))
	}
	defer bare.Close()
	route, closeSession, err := gatehouseSession(ws, argv)
	if err != nil {
		fail(fmt.Errorf("gatehouse session: %w", err))
	}
	defer closeSession()

	ctx := context.Background()
	bareCall := func(i int) error {
		res, err := bare.CallTool(ctx, &sdk.CallToolParams{Name: "echo", Arguments: map[string]any{"message": fmt.Sprintf("hello %d", i)}})
		if err == nil && res.IsError {
			err = errors.New("echo reported an error")
		}
		return err
	}
	ghCall := func(r, i int) error {
		args, _ := json.Marshal(map[string]any{"message": fmt.Sprintf("hello %d", i)})
		res, err := route(ctx, tools.Call{ID: fmt.Sprintf("call_%d_%d", r, i), Name: "mcp__everything__echo", Args: args})
		if err == nil && res.IsError {
			err = fmt.Errorf("%s", res.Output)
		}
		return err
	}
	// Warm both paths up, then alternate call by call, so a slow moment of
	// the machine (shared by other work) hits both sides alike.
	for i := 0; i < 10; i++ {
		if err := bareCall(i); err != nil {
			fail(fmt.Errorf("bare echo: %w", err))
		}
		if err := ghCall(-1, i); err != nil {
			fail(fmt.Errorf("session echo: %w", err))
		}
	}
	var bareT, ghT []time.Duration
	for r := 0; r < *runs; r++ {
		var b, g time.Duration
		for i := 0; i < *calls; i++ {
			start := time.Now()
			if err := bareCall(i); err != nil {
				fail(fmt.Errorf("bare echo: %w", err))
			}
			mid := time.Now()
			if err := ghCall(r, i); err != nil {
				fail(fmt.Errorf("session echo: %w", err))
			}
			b, g = b+mid.Sub(start), g+time.Since(mid)
		}
		bareT, ghT = append(bareT, b), append(ghT, g)
	}
	b, g := median(bareT), median(ghT)
	fmt.Printf("%d MCP echo calls (median of %d runs): bare go-sdk %v   gatehouse router %v   ratio %.2f× (target ≤ 1.2×)\n",
		*calls, *runs, b.Round(time.Microsecond), g.Round(time.Microsecond), float64(g)/float64(b))
}

func bareSession(argv []string) (*sdk.ClientSession, error) {
	c := sdk.NewClient(&sdk.Implementation{Name: "bare", Version: "1"}, &sdk.ClientOptions{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return c.Connect(ctx, &sdk.CommandTransport{Command: exec.Command(argv[0], argv[1:]...)}, nil)
}

// gatehouseSession starts the server under an mcp.Manager and routes calls
// through a session's chain as internal/runtime assembles it (the tool
// surface with the built-ins and the server's provider, the policy, the
// output cap, the approval gate in auto, the file-change recorder), with
// tool.started and tool.finished published to an event bus per call as the
// agent loop does. runtime.Session routes only inside a turn, which needs a
// model; the chain is rebuilt here from the same exported pieces.
func gatehouseSession(root string, argv []string) (func(context.Context, tools.Call) (tools.Result, error), func(), error) {
	m := mcp.NewManager(mcp.Options{Workspace: root}, []mcp.Entry{{Name: "everything", Config: mcp.ServerConfig{Command: argv[0], Args: argv[1:]}}})
	m.Start()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := m.Wait(ctx); err != nil {
		m.Close()
		return nil, nil, err
	}
	if st, _ := m.Status("everything"); st.State != mcp.StateReady {
		m.Close()
		return nil, nil, fmt.Errorf("server %s: %s\n%s", st.State, st.Error, st.Stderr)
	}
	ws, err := runtime.OpenWorkspace(root)
	if err != nil {
		m.Close()
		return nil, nil, err
	}
	procs := proc.NewRegistry(proc.Options{})
	surface, err := tools.NewSurface(builtin.Tools(ws, procs)...)
	if err == nil {
		for _, p := range m.Providers() {
			if err = surface.AddProvider(p); err != nil {
				break
			}
		}
	}
	if err != nil {
		m.Close()
		return nil, nil, err
	}
	live, err := watch.OpenLive(ws.Root(), watch.LiveOptions{})
	if err != nil {
		m.Close()
		return nil, nil, err
	}
	bus := events.New(events.SinkFunc(func(protocol.Event) {}), events.Options{})
	gate := approval.New(approval.Config{Mode: func() approval.Mode { return approval.Auto },
		Gateway: approval.NewGUI("bench"), Session: "bench", Events: bus, Workspace: ws, Watch: live.W.OnChange})
	router := tools.NewRouter(surface, tools.Policy{}, tools.OutputCap(runtime.OutputCap), tools.Plan(nil), gate.Middleware, live.T.Middleware(ws))
	route := func(ctx context.Context, call tools.Call) (tools.Result, error) {
		bus.Publish(protocol.Event{SessionID: "bench", TurnID: "t1", Type: protocol.ToolStarted,
			Payload: protocol.ToolStartedPayload{CallID: call.ID, Tool: call.Name, Args: call.Args}})
		start := time.Now()
		res, err := router.Run(tools.WithTurn(ctx, "t1"), call)
		bus.Publish(protocol.Event{SessionID: "bench", TurnID: "t1", Type: protocol.ToolFinished,
			Payload: protocol.ToolFinishedPayload{CallID: call.ID, Tool: call.Name, Result: res.Output, IsError: res.IsError, DurationMs: time.Since(start).Milliseconds()}})
		return res, err
	}
	return route, func() { bus.Close(); live.Stop(); procs.Close(); m.Close() }, nil
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "mcpbench:", err)
	os.Exit(1)
}

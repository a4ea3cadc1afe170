package runtime

import (
	"context"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/approval"
	"gatehouse/internal/images"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/mcp"
	"gatehouse/internal/mcp/mcptest"
	"gatehouse/internal/protocol"
)

// everythingManager starts server-everything (installed by make
// mcp-servers) for a test.
func everythingManager(t *testing.T) *mcp.Manager {
	t.Helper()
	js := mcptest.Server(t, "server-everything")
	return readyManager(t, "everything", mcp.ServerConfig{Command: "node", Args: []string{js, "stdio"}})
}

// readyManager starts one server for a test and waits until it is ready.
func readyManager(t *testing.T, name string, cfg mcp.ServerConfig) *mcp.Manager {
	t.Helper()
	m := mcp.NewManager(mcp.Options{Workspace: t.TempDir()}, []mcp.Entry{{Name: name, Config: cfg}})
	t.Cleanup(func() { m.Close() })
	m.Start()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := m.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	if st, _ := m.Status(name); st.State != mcp.StateReady {
		t.Fatalf("%s: %s %s\n%s", name, st.State, st.Error, st.Stderr)
	}
	return m
}

// The picture an MCP tool returns reaches a model that sees as an image in
// the next request, and is on the call's card (tool.finished's images); a
// text-only model reads the placeholder line and gets no image.
func TestMCPToolPictureReachesASeeingModel(t *testing.T) {
	m := everythingManager(t)
	for _, sees := range []bool{true, false} {
		store := images.NewStore(t.TempDir())
		h := start(t, llmtest.Script{Responses: []llmtest.Response{
			call("i1", "mcp__everything__get-tiny-image", `{}`), text("a tiny picture"),
		}}, approval.Auto, nil, func(o *Options) {
			o.Images, o.CanSee, o.Providers = store, see(sees), m.Providers()
		})
		if r := h.run("show me"); r != protocol.StopCompleted {
			t.Fatalf("sees=%v: turn %s", sees, r)
		}
		got := h.srv.Images(1)
		body := string(h.srv.ModelRequests()[1].Body)
		var card []protocol.ImageRef
		h.mu.Lock()
		for _, e := range h.events {
			if p, ok := e.Payload.(protocol.ToolFinishedPayload); ok && p.CallID == "i1" {
				card = p.Images
			}
		}
		h.mu.Unlock()
		if sees {
			if len(got) != 1 || len(card) != 1 || !strings.Contains(body, "the picture follows") {
				t.Fatalf("a seeing model got %d images, the card %d: %s", len(got), len(card), body[strings.Index(body, "i1"):])
			}
			if card[0].Name != "get-tiny-image from everything" {
				t.Errorf("the card names the picture %q", card[0].Name)
			}
			if _, _, err := store.Get(card[0].ID); err != nil {
				t.Errorf("the picture is not in the session's store: %v", err)
			}
			continue
		}
		if len(got) != 0 || len(card) != 0 || !strings.Contains(body, "[image: image/png") || !strings.Contains(body, "not shown") {
			t.Fatalf("a text-only model got %d images, the card %d: %.600s", len(got), len(card), body)
		}
	}
}

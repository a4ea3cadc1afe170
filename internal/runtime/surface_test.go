package runtime

import (
	"context"
	"errors"
	"sort"
	"strings"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/events"
	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

// builtins are the tools every main session offers outside plan mode: the
// file tools, bash, web_fetch, and the ones that talk with the user.
var builtins = []string{"apply_patch", "ask_user", "bash", "glob", "grep", "list_dir", "read_file", "todo_write", "web_fetch", "write_file"}

func with(names ...string) string {
	all := append(append([]string(nil), builtins...), names...)
	sort.Strings(all)
	return strings.Join(all, ",")
}

// A provider registered at run time is in the next model request, and a
// tool it drops is gone from the one after; its tools run like built-ins.
func TestProviderToolsReachTheNextRequest(t *testing.T) {
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		text("before"),
		call("c1", "lookup", `{}`), text("looked up"),
		text("after"),
	}}, approval.Auto, nil, nil)
	if got := h.run("one"); got != protocol.StopCompleted {
		t.Fatalf("turn 1: %s", got)
	}
	p := &provider{name: "go caller", ts: []tools.Tool{replyTool{"lookup", "found it"}, replyTool{"translate", "bonjour"}}}
	if err := h.sess.AddProvider(p); err != nil {
		t.Fatal(err)
	}
	if got := h.run("two"); got != protocol.StopCompleted {
		t.Fatalf("turn 2: %s", got)
	}
	if got := h.toolResult("c1"); got != `"found it"` {
		t.Errorf("provider tool result %s", got)
	}
	p.set(replyTool{"lookup", "found it"})
	if got := h.run("three"); got != protocol.StopCompleted {
		t.Fatalf("turn 3: %s", got)
	}
	for i, want := range []string{with(), with("lookup", "translate"), with("lookup", "translate"), with("lookup")} {
		if got := strings.Join(requestTools(t, h.srv, i), ","); got != want {
			t.Errorf("request %d offered %s, want %s", i, got, want)
		}
	}
	if !h.sess.RemoveProvider("go caller") {
		t.Fatal("RemoveProvider found nothing")
	}
	// view_image is on the surface too; the agent offers it only to a
	// model that sees, which this one does not.
	if got := len(h.sess.Specs()); got != len(builtins)+1 {
		t.Errorf("after removal the surface has %d tools", got)
	}
}

// A clash when a provider is added is an error naming both sources; one that
// appears after the provider's list changed leaves the tool out and is
// reported on the provider.
func TestProviderClashes(t *testing.T) {
	h := start(t, llmtest.Script{Responses: []llmtest.Response{call("c1", "bash", `{"action":"list"}`), text("ok")}},
		approval.Auto, nil, nil)
	err := h.sess.AddProvider(&provider{name: "mcp files", ts: []tools.Tool{replyTool{"read_file", "theirs"}}})
	if err == nil || !strings.Contains(err.Error(), `"mcp files"`) || !strings.Contains(err.Error(), tools.BuiltinSource) {
		t.Fatalf("add-time clash: %v", err)
	}
	p := &provider{name: "mcp shell", ts: []tools.Tool{replyTool{"shell_ok", "fine"}}}
	if err := h.sess.AddProvider(p); err != nil {
		t.Fatal(err)
	}
	p.set(replyTool{"shell_ok", "fine"}, replyTool{"bash", "not the real bash"})
	if got := h.run("list"); got != protocol.StopCompleted {
		t.Fatalf("turn: %s", got)
	}
	if got := strings.Join(requestTools(t, h.srv, 0), ","); got != with("shell_ok") {
		t.Errorf("request offered %s", got)
	}
	if res := h.toolResult("c1"); strings.Contains(res, "not the real bash") {
		t.Errorf("the clashing tool ran: %s", res)
	}
	errs := strings.Join(h.sess.ProviderErrors("mcp shell"), "\n")
	if !strings.Contains(errs, `tool "bash" left out`) || !strings.Contains(errs, tools.BuiltinSource) {
		t.Errorf("provider errors %q", errs)
	}
}

// A tool outside the session's policy is neither offered nor runnable by
// name; a child session gets its list intersected with its parent's.
func TestPolicyHidesAndRefuses(t *testing.T) {
	h := start(t, llmtest.Script{Responses: []llmtest.Response{call("c1", "write_file", `{"path":"a.txt","content":"x"}`), text("refused")}},
		approval.Auto, nil, func(o *Options) { o.Policy = tools.ReadOnlyPreset() })
	if got := h.run("write"); got != protocol.StopCompleted {
		t.Fatalf("turn: %s", got)
	}
	if got := strings.Join(requestTools(t, h.srv, 0), ","); got != "ask_user,glob,grep,list_dir,read_file,todo_write" {
		t.Errorf("a read-only session offered %s", got)
	}
	if res := h.toolResult("c1"); !strings.Contains(res, "not allowed in this session") {
		t.Errorf("write_file in a read-only session: %s", res)
	}
	child := start(t, llmtest.Script{}, approval.Auto, nil, func(o *Options) {
		o.Parent, o.Policy = h.sess, tools.AllowOnly("read_file", "bash")
	})
	if got := child.sess.Specs(); len(got) != 1 || got[0].Name != "read_file" {
		t.Errorf("child surface %v", got)
	}
}

// A provider given at construction that clashes fails New with both
// sources named.
func TestNewRefusesAClashingProvider(t *testing.T) {
	ws, err := OpenWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	_, err = New(Options{Workspace: ws, Model: noModel{}, Sink: events.SinkFunc(func(protocol.Event) {}),
		Mode:      func() approval.Mode { return approval.Auto },
		Gateway:   func(string, approval.Publisher) approval.Gateway { return approval.HeadlessGateway(nil, nil) },
		Providers: []tools.Provider{&provider{name: "mcp grep", ts: []tools.Tool{replyTool{"grep", "theirs"}}}}})
	if err == nil || !strings.Contains(err.Error(), `"mcp grep"`) || !strings.Contains(err.Error(), tools.BuiltinSource) {
		t.Fatalf("New: %v", err)
	}
}

type noModel struct{}

func (noModel) Stream(context.Context, llm.Request, func(string)) (llm.Response, error) {
	return llm.Response{}, errors.New("no model in this test")
}

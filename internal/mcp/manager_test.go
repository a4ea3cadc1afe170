package mcp

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/tools"
)

func TestToolsJoinTheSurfaceAndResultsMap(t *testing.T) {
	e, _ := fakeEntry(t, "fake", "normal")
	e.Config.Env["FAKE_ENV"] = "passed"
	env := append(os.Environ(), "OPENAI_API_KEY=sk-secret", "GATEHOUSE_X=leak")
	m := newTestManager(t, Options{Env: env}, e)
	st := mustStatus(t, m, "fake")
	if st.State != StateReady || len(st.Tools) != 6 {
		t.Fatalf("status = %+v", st)
	}
	p := m.Providers()[0]
	if p.Name() != "mcp server fake" {
		t.Errorf("provider name %q", p.Name())
	}
	var names []string
	for _, tl := range p.Tools() {
		names = append(names, tl.Spec().Name)
		var schema map[string]any
		if err := json.Unmarshal(tl.Spec().Parameters, &schema); err != nil || schema["type"] != "object" {
			t.Errorf("%s: schema %s is not an object schema", tl.Spec().Name, tl.Spec().Parameters)
		}
	}
	if got := strings.Join(names, ","); got != "mcp__fake__big,mcp__fake__echo,mcp__fake__fail,mcp__fake__hang,mcp__fake__peek,mcp__fake__picture" {
		t.Errorf("tool names %s", got)
	}
	if _, err := tools.NewRegistry(p.Tools()...); err != nil {
		t.Errorf("the registry refuses the server's tools: %v", err)
	}

	ctx := context.Background()
	res, _ := findTool(t, m, "mcp__fake__echo").Run(ctx, json.RawMessage(`{"text":"hi"}`))
	if body(t, res)["content"] != "echo: hi" {
		t.Errorf("echo: %s", res.Output)
	}
	res, _ = findTool(t, m, "mcp__fake__fail").Run(ctx, json.RawMessage(`{}`))
	if code, msg := errorMessage(t, res); code != CodeToolError || msg != "no such record" {
		t.Errorf("isError result: %s %q", code, msg)
	}
	res, _ = findTool(t, m, "mcp__fake__picture").Run(ctx, nil)
	c, _ := body(t, res)["content"].(string)
	if !strings.Contains(c, "here it is") || !strings.Contains(c, "[image: image/png, 2 KB; not shown]") ||
		!strings.Contains(c, "[resource link] file:///tmp/a.txt (a.txt): the file") {
		t.Errorf("picture: %q", c)
	}
	res, _ = findTool(t, m, "mcp__fake__peek").Run(ctx, nil)
	c, _ = body(t, res)["content"].(string)
	if strings.Contains(c, "sk-secret") || strings.Contains(c, "leak") || !strings.Contains(c, "FAKE_ENV=passed") {
		t.Errorf("server environment: %q", c)
	}
	res, _ = findTool(t, m, "mcp__fake__echo").Run(ctx, json.RawMessage(`[1]`))
	if code, _ := errorMessage(t, res); code != tools.CodeInvalidArguments {
		t.Errorf("array arguments: %s", code)
	}
}

func TestReadOnlyHintCountsOnlyWhenTrusted(t *testing.T) {
	e, _ := fakeEntry(t, "fake", "normal")
	m := newTestManager(t, Options{}, e)
	if findTool(t, m, "mcp__fake__peek").Spec().ReadOnly {
		t.Error("an untrusted hint made peek read-only")
	}
	if tools.ReadOnlyPreset().Allows(findTool(t, m, "mcp__fake__peek")) {
		t.Error("a read-only session sees an untrusted server's tool")
	}
	cfg, _ := m.Config("fake")
	cfg.TrustReadOnlyHints = true
	if err := m.Put(Entry{Name: "fake", Source: "test", Config: cfg}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	m.Wait(ctx)
	if !findTool(t, m, "mcp__fake__peek").Spec().ReadOnly {
		t.Error("a trusted hint did not count")
	}
	if findTool(t, m, "mcp__fake__echo").Spec().ReadOnly {
		t.Error("echo has no hint but is read-only")
	}
}

func TestToolSwitchDisableAndRestart(t *testing.T) {
	e, pids := fakeEntry(t, "fake", "normal")
	changes := make(chan struct{}, 100)
	m := newTestManager(t, Options{OnChange: func() {
		select {
		case changes <- struct{}{}:
		default:
		}
	}}, e)
	if err := m.SetToolEnabled("fake", "hang", false); err != nil {
		t.Fatal(err)
	}
	for _, tl := range m.Providers()[0].Tools() {
		if tl.Spec().Name == "mcp__fake__hang" {
			t.Fatal("a switched-off tool is still on the surface")
		}
	}
	cfg, _ := m.Config("fake")
	if strings.Join(cfg.DisabledTools, ",") != "hang" {
		t.Errorf("disabled tools %v", cfg.DisabledTools)
	}

	// The process dies: the server shows failed, then Restart brings it back.
	first := pids()
	if p, err := os.FindProcess(first[0]); err != nil {
		t.Fatal(err)
	} else if err := p.Kill(); err != nil {
		t.Fatal(err)
	}
	waitState(t, m, changes, "fake", StateFailed)
	if len(m.Providers()[0].Tools()) != 0 {
		t.Error("a failed server offers tools")
	}
	if err := m.Restart("fake"); err != nil {
		t.Fatal(err)
	}
	waitState(t, m, changes, "fake", StateReady)
	if pids()[0] == first[0] {
		t.Error("restart did not start a new process")
	}

	if err := m.SetDisabled("fake", true); err != nil {
		t.Fatal(err)
	}
	if st := mustStatus(t, m, "fake"); st.State != StateDisabled {
		t.Fatalf("state %s after disable", st.State)
	}
	assertGone(t, pids())
}

func waitState(t *testing.T, m *Manager, changes <-chan struct{}, name string, want State) {
	t.Helper()
	timeout := time.After(time.Minute)
	for {
		if st := mustStatus(t, m, name); st.State == want {
			return
		}
		select {
		case <-changes:
		case <-timeout:
			t.Fatalf("%s never reached %s: %+v", name, want, mustStatus(t, m, name))
		}
	}
}

func TestMissingProgramSaysSo(t *testing.T) {
	m := newTestManager(t, Options{}, Entry{Name: "x", Config: ServerConfig{Command: "no-such-program-gatehouse"}})
	st := mustStatus(t, m, "x")
	if st.State != StateFailed || !strings.Contains(st.Error, "program not found") {
		t.Fatalf("status %+v", st)
	}
	res, err := (&Tool{srv: m.Providers()[0].(provider).s, remote: "x"}).Run(context.Background(), nil)
	if code, msg := errorMessage(t, res); err != nil || code != CodeServerError || !strings.Contains(msg, `"x" is failed`) {
		t.Fatalf("a call to a failed server: %v %s %q", err, code, msg)
	}
}

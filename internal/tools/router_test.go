package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
)

// upper is a small real tool: it upper-cases its text argument.
type upper struct{ runs atomic.Int32 }

func (u *upper) Spec() Spec {
	return Spec{Name: "upper", Description: "upper-cases text", ReadOnly: true,
		Parameters: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)}
}

func (u *upper) Run(_ context.Context, args json.RawMessage) (Result, error) {
	u.runs.Add(1)
	var a struct {
		Text string `json:"text"`
	}
	if res, ok := DecodeArgs(args, &a); !ok {
		return res, nil
	}
	return OK(map[string]string{"text": strings.ToUpper(a.Text)})
}

// counter acts (not read-only) unless its action is "get".
type counter struct{ n int }

func (c *counter) Spec() Spec {
	return Spec{Name: "counter", Parameters: json.RawMessage(`{"type":"object"}`)}
}
func (c *counter) ReadOnlyCall(args json.RawMessage) bool {
	var a struct{ Action string }
	_ = json.Unmarshal(args, &a)
	return a.Action == "get"
}
func (c *counter) Run(_ context.Context, args json.RawMessage) (Result, error) {
	if !c.ReadOnlyCall(args) {
		c.n++
	}
	return OK(map[string]int{"n": c.n})
}

func errCode(t *testing.T, res Result) string {
	t.Helper()
	if !res.IsError {
		t.Fatalf("want an error result, got %s", res.Output)
	}
	var body struct {
		OK    bool
		Error Error
	}
	if err := json.Unmarshal(res.Output, &body); err != nil {
		t.Fatalf("error result is not JSON: %v", err)
	}
	return body.Error.Code
}

func TestRegistryNeedsSpecAndExecutor(t *testing.T) {
	r, err := NewRegistry(&upper{})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Add(Spec{Name: "lonely", Parameters: json.RawMessage(`{"type":"object"}`)}, nil); err == nil {
		t.Error("a spec without an executor was accepted")
	}
	if err := r.Register(nil); err == nil {
		t.Error("a nil tool was accepted")
	}
	if err := r.Register(&upper{}); err == nil {
		t.Error("a duplicate name was accepted")
	}
	if err := r.Add(Spec{Name: "bad name!"}, func(context.Context, json.RawMessage) (Result, error) { return Result{}, nil }); err == nil {
		t.Error("an invalid name was accepted")
	}
	if err := r.Add(Spec{Name: "arr", Parameters: json.RawMessage(`{"type":"array"}`)}, func(context.Context, json.RawMessage) (Result, error) { return Result{}, nil }); err == nil {
		t.Error("a non-object schema was accepted")
	}
	err = r.Add(Spec{Name: "custom", Parameters: json.RawMessage(`{"type":"object"}`)}, func(context.Context, json.RawMessage) (Result, error) {
		return OK("custom ran")
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := NewRouter(r, Policy{}).Run(context.Background(), Call{ID: "1", Name: "custom"})
	if err != nil || string(res.Output) != `"custom ran"` {
		t.Fatalf("custom tool: %s %v", res.Output, err)
	}
}

func TestRouterTurnsModelMistakesIntoResults(t *testing.T) {
	u := &upper{}
	r, _ := NewRegistry(u, &counter{})
	rt := NewRouter(r, AllowOnly("upper"))
	rt.MaxArgsBytes = 64
	ctx := context.Background()
	cases := []struct {
		call Call
		code string
	}{
		{Call{Name: "nope", Args: json.RawMessage(`{}`)}, CodeUnknownTool},
		{Call{Name: "counter", Args: json.RawMessage(`{}`)}, CodeToolNotAllowed},
		{Call{Name: "upper", Args: json.RawMessage(`{"text":`)}, CodeInvalidArguments},
		{Call{Name: "upper", Args: json.RawMessage(`{"text":"` + strings.Repeat("x", 100) + `"}`)}, CodeInvalidArguments},
		{Call{Name: "upper", Args: json.RawMessage(`{"txt":"a"}`)}, CodeInvalidArguments},
	}
	for _, c := range cases {
		res, err := rt.Run(ctx, c.call)
		if err != nil {
			t.Fatalf("%s: infrastructure error %v", c.call.Args, err)
		}
		if got := errCode(t, res); got != c.code {
			t.Errorf("%s %s: code %q, want %q", c.call.Name, c.call.Args, got, c.code)
		}
	}
	if n := u.runs.Load(); n != 1 {
		t.Errorf("executor ran %d times; only the strict-decode case reaches it", n)
	}
	res, _ := rt.Run(ctx, Call{Name: "upper", Args: json.RawMessage(`{"text":"hi"}`)})
	if res.IsError || string(res.Output) != `{"text":"HI"}` {
		t.Fatalf("good call: %s", res.Output)
	}
	if specs := rt.Specs(); len(specs) != 1 || specs[0].Name != "upper" {
		t.Errorf("policy shows %v", specs)
	}
}

func TestReadOnlyPresetShowsOnlyReadingTools(t *testing.T) {
	c := &counter{}
	r, _ := NewRegistry(&upper{}, c)
	r.Add(Spec{Name: "writer", Parameters: json.RawMessage(`{"type":"object"}`)}, func(context.Context, json.RawMessage) (Result, error) { return OK("wrote") })
	rt := NewRouter(r, ReadOnlyPreset())
	var names []string
	for _, s := range rt.Specs() {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "upper" {
		t.Errorf("read-only session shows %v", names)
	}
	ctx := context.Background()
	// One notion: a tool not shown is not runnable by name, whatever the
	// call; a per-call classifier (counter, like bash) is not shown.
	for _, call := range []Call{
		{Name: "counter", Args: json.RawMessage(`{"action":"add"}`)},
		{Name: "counter", Args: json.RawMessage(`{"action":"get"}`)},
		{Name: "writer"},
	} {
		res, _ := rt.Run(ctx, call)
		if errCode(t, res) != CodeToolNotAllowed || !strings.Contains(string(res.Output), "not allowed in this session") {
			t.Errorf("%s %s ran in a read-only session: %s", call.Name, call.Args, res.Output)
		}
	}
	if res, _ := rt.Run(ctx, Call{Name: "upper", Args: json.RawMessage(`{"text":"a"}`)}); res.IsError {
		t.Errorf("a reading tool was refused: %s", res.Output)
	}
	if c.n != 0 {
		t.Errorf("counter changed to %d", c.n)
	}
}

func TestPolicyIntersect(t *testing.T) {
	u, c := &upper{}, &counter{}
	all := Policy{}
	child := AllowOnly("upper", "counter").Intersect(AllowOnly("counter"))
	if child.Allows(u) || !child.Allows(c) {
		t.Errorf("child ∩ parent: %v", child.Allowed)
	}
	if p := AllowOnly("counter").Intersect(all); !p.Allows(c) || p.Allows(u) {
		t.Error("intersect with the main agent's policy changed the list")
	}
	if p := all.Intersect(ReadOnlyPreset()); p.Allows(c) || !p.Allows(u) {
		t.Error("a read-only parent lets its child act")
	}
}

func TestChainOrderAuditAndCap(t *testing.T) {
	var order []string
	mark := func(name string) Middleware {
		return func(_ Tool, next Handler) Handler {
			return func(ctx context.Context, call Call) (Result, error) {
				order = append(order, name+">")
				res, err := next(ctx, call)
				order = append(order, "<"+name)
				return res, err
			}
		}
	}
	var audited []AuditEntry
	r, _ := NewRegistry(&upper{})
	rt := NewRouter(r, Policy{}, Audit(func(e AuditEntry) { audited = append(audited, e) }), mark("a"), mark("b"), OutputCap(40))
	res, err := rt.Run(context.Background(), Call{ID: "c1", Name: "upper", Args: json.RawMessage(`{"text":"` + strings.Repeat("é", 60) + `"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(order, " "); got != "a> b> <b <a" {
		t.Errorf("order %q", got)
	}
	var capped struct {
		Truncated     bool
		OriginalBytes int
		Head          string
	}
	if err := json.Unmarshal(res.Output, &capped); err != nil || !capped.Truncated || capped.OriginalBytes <= 40 {
		t.Fatalf("capped output %s (%v)", res.Output, err)
	}
	if len(audited) != 1 || audited[0].Call.ID != "c1" || audited[0].Result.IsError {
		t.Fatalf("audit %+v", audited)
	}
}

func TestCallInContext(t *testing.T) {
	r, _ := NewRegistry()
	var seen Call
	r.Add(Spec{Name: "who", Parameters: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, _ json.RawMessage) (Result, error) {
		seen, _ = CallFrom(ctx)
		return OK(nil)
	})
	NewRouter(r, Policy{}).Run(context.Background(), Call{ID: "call-7", Name: "who"})
	if seen.ID != "call-7" {
		t.Errorf("executor saw call %+v", seen)
	}
}

func TestFailErrTakesCodeAndPath(t *testing.T) {
	err := fmtErr{code: CodeOutsideWorkspace, path: "../x"}
	res := FailErr(errors.Join(errors.New("while writing"), err), CodeIOError)
	var body struct{ Error Error }
	json.Unmarshal(res.Output, &body)
	if body.Error.Code != CodeOutsideWorkspace || body.Error.Path != "../x" {
		t.Errorf("got %+v", body.Error)
	}
}

type fmtErr struct{ code, path string }

func (e fmtErr) Error() string     { return "refused " + e.path }
func (e fmtErr) ErrorCode() string { return e.code }
func (e fmtErr) ErrorPath() string { return e.path }

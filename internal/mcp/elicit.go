package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
	"gatehouse/internal/tools/steer"
)

// Questions from servers (elicitation, form mode).
//
// A server is shared between sessions (tabs), so its question must reach
// the session whose call caused it. Over stdio a request carries no call
// context, so the question goes to the session with this server's call in
// flight; with none, or calls of several sessions, it goes to the
// manager's own asker (the window), naming the server only. No one to ask
// (exec without a terminal, an editor without forms): declined, and the
// server reads so. URL mode is declined: it would send the user to a page
// the server names, outside anything the app can show or check.
// Sampling is not offered (deprecated by SEP-2577, and go-sdk v1.8.0).

// inflight is one tool call running on a server, for routing its questions.
type inflight struct {
	session string
	callID  string
	asker   steer.FormAsker
	ctx     context.Context
}

// begin records a call running on s; the returned func ends it.
func (s *server) begin(ctx context.Context) func() {
	c := &inflight{ctx: ctx, asker: steer.FormAskerFrom(ctx)}
	if o, ok := tools.OwnerFrom(ctx); ok {
		c.session = o.Session
	}
	if call, ok := tools.CallFrom(ctx); ok {
		c.callID = call.ID
	}
	s.mu.Lock()
	if s.calls == nil {
		s.calls = map[*inflight]struct{}{}
	}
	s.calls[c] = struct{}{}
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		delete(s.calls, c)
		s.mu.Unlock()
	}
}

// caller is the call a question of s comes from: the one call in flight, or
// any of one session's calls (then without a call id); nil when no call or
// calls of several sessions are in flight.
func (s *server) caller() *inflight {
	s.mu.Lock()
	defer s.mu.Unlock()
	var one *inflight
	sessions := map[string]bool{}
	for c := range s.calls {
		sessions[c.session] = true
		one = c
	}
	switch {
	case len(s.calls) == 1:
		return one
	case len(sessions) == 1 && one != nil && one.session != "":
		return &inflight{session: one.session, asker: one.asker, ctx: one.ctx}
	}
	return nil
}

// elicit answers a server's elicitation/create request.
func (s *server) elicit(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	decline := &sdk.ElicitResult{Action: protocol.AnswerDecline}
	p := req.Params
	if p == nil || p.Mode == "url" || (p.Mode == "" && p.URL != "") {
		return decline, nil
	}
	fields, err := FormFields(p.RequestedSchema)
	if err != nil {
		return decline, nil
	}
	f := steer.Form{
		QuestionID: fmt.Sprintf("mcp-question-%d", s.m.questions.Add(1)),
		Server:     s.name, Workspace: fromWorkspace(s.source), Message: p.Message, Fields: fields,
	}
	asker := s.m.opts.Ask
	if c := s.caller(); c != nil {
		asker, f.CallID = c.asker, c.callID
		// The question ends with the call that caused it (the turn was
		// cancelled): the server reads cancel.
		var stop context.CancelFunc
		ctx, stop = context.WithCancel(ctx)
		defer stop()
		defer context.AfterFunc(c.ctx, stop)()
	}
	if asker == nil {
		return decline, nil
	}
	a, err := asker.AskForm(ctx, f)
	switch {
	case errors.Is(err, steer.ErrNobody):
		return decline, nil
	case err != nil:
		return &sdk.ElicitResult{Action: protocol.AnswerCancel}, nil
	case a.Action == protocol.AnswerAccept:
		v, err := steer.ValidateForm(fields, a.Content)
		if err != nil {
			return decline, nil
		}
		return &sdk.ElicitResult{Action: protocol.AnswerAccept, Content: v}, nil
	case a.Action == protocol.AnswerDecline:
		return decline, nil
	}
	return &sdk.ElicitResult{Action: protocol.AnswerCancel}, nil
}

// schemaProp is the part of a requested schema's property the form reads.
type schemaProp struct {
	Type        string   `json:"type"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Format      string   `json:"format"`
	Enum        []string `json:"enum"`
	EnumNames   []string `json:"enumNames"`
	OneOf       []struct {
		Const string `json:"const"`
		Title string `json:"title"`
	} `json:"oneOf"`
	Default   any      `json:"default"`
	Minimum   *float64 `json:"minimum"`
	Maximum   *float64 `json:"maximum"`
	MinLength *int     `json:"minLength"`
	MaxLength *int     `json:"maxLength"`
}

// FormFields reads a requested schema (an object of flat properties) as
// form fields, sorted by name with required ones first. A property of a
// type the form cannot ask (an array, an object) is left out when it is
// optional and fails the whole form when it is required.
func FormFields(schema any) ([]protocol.FormField, error) {
	b, err := json.Marshal(schema)
	if err != nil {
		return nil, err
	}
	var sc struct {
		Type       string                     `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if err := json.Unmarshal(b, &sc); err != nil {
		return nil, fmt.Errorf("the requested schema is not an object schema: %w", err)
	}
	if sc.Type != "" && sc.Type != "object" {
		return nil, fmt.Errorf("the requested schema is of type %q, not object", sc.Type)
	}
	var out []protocol.FormField
	for name, raw := range sc.Properties {
		var p schemaProp
		req := slices.Contains(sc.Required, name)
		if err := json.Unmarshal(raw, &p); err != nil {
			if req {
				return nil, fmt.Errorf("field %q: %w", name, err)
			}
			continue
		}
		f := protocol.FormField{Name: name, Title: p.Title, Description: p.Description, Format: p.Format,
			Required: req, Default: p.Default, Min: p.Minimum, Max: p.Maximum, MinLength: p.MinLength, MaxLength: p.MaxLength}
		switch {
		case p.Type == "string" && len(p.OneOf) > 0:
			f.Type = protocol.FieldEnum
			for _, o := range p.OneOf {
				f.Options = append(f.Options, protocol.FormOption{Value: o.Const, Title: o.Title})
			}
		case p.Type == "string" && len(p.Enum) > 0:
			f.Type = protocol.FieldEnum
			for i, v := range p.Enum {
				o := protocol.FormOption{Value: v}
				if i < len(p.EnumNames) {
					o.Title = p.EnumNames[i]
				}
				f.Options = append(f.Options, o)
			}
		case p.Type == "string", p.Type == "number", p.Type == "integer", p.Type == "boolean":
			f.Type = p.Type
		default:
			if req {
				return nil, fmt.Errorf("field %q is of type %q, which the form cannot ask", name, p.Type)
			}
			continue
		}
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Required != out[j].Required {
			return out[i].Required
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}

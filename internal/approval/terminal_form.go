package approval

import (
	"context"
	"fmt"
	"strings"

	"gatehouse/internal/protocol"
	"gatehouse/internal/termsafe"
	"gatehouse/internal/tools/steer"
)

// Form puts an MCP server's question (elicitation) to the terminal: the
// server and its message, then answer, decline or cancel; answering asks
// each field in turn (Enter keeps a default or skips an optional field) and
// checks the values as the window does before they are sent.
func (t *Terminal) Form(ctx context.Context, f steer.Form) (steer.FormAnswer, error) {
	t.once.Do(func() {
		t.lines = make(chan string)
		go t.readLines()
	})
	t.mu.Lock()
	defer t.mu.Unlock()
	from := "MCP server " + termsafe.Line(f.Server)
	if f.Workspace {
		from += " (from the workspace)"
	}
	fmt.Fprintf(t.out, "\n── %s asks: %s\n", from, termsafe.Text(f.Message))
	for {
		line, err := t.prompt(ctx, "[a]nswer, [d]ecline or [c]ancel? ")
		if err != nil {
			return steer.FormAnswer{}, err
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "d", "decline":
			return steer.FormAnswer{Action: protocol.AnswerDecline}, nil
		case "c", "cancel":
			return steer.FormAnswer{Action: protocol.AnswerCancel}, nil
		case "a", "answer":
		default:
			continue
		}
		values := map[string]any{}
		for _, fl := range f.Fields {
			v, err := t.field(ctx, fl)
			if err != nil {
				return steer.FormAnswer{}, err
			}
			if v != nil {
				values[fl.Name] = v
			}
		}
		checked, err := steer.ValidateForm(f.Fields, values)
		if err != nil {
			fmt.Fprintf(t.out, "%s\n", termsafe.Line(err.Error()))
			continue
		}
		return steer.FormAnswer{Action: protocol.AnswerAccept, Content: checked}, nil
	}
}

// field asks one field until its value checks; nil: left empty.
func (t *Terminal) field(ctx context.Context, fl protocol.FormField) (any, error) {
	name := fl.Title
	if name == "" {
		name = fl.Name
	}
	head := termsafe.Line(name)
	if fl.Description != "" {
		head += " — " + termsafe.Line(fl.Description)
	}
	if fl.Required {
		head += " (required)"
	}
	fmt.Fprintf(t.out, "%s\n", head)
	for i, o := range fl.Options {
		title := o.Title
		if title == "" {
			title = o.Value
		}
		fmt.Fprintf(t.out, "  [%d] %s\n", i+1, termsafe.Line(title))
	}
	p := "value: "
	switch {
	case fl.Type == protocol.FieldBoolean:
		p = "yes or no: "
	case len(fl.Options) > 0:
		p = fmt.Sprintf("choice (1-%d): ", len(fl.Options))
	}
	if fl.Default != nil {
		p = fmt.Sprintf("%s[%v] ", p, fl.Default)
	}
	for {
		line, err := t.prompt(ctx, p)
		if err != nil {
			return nil, err
		}
		line = strings.TrimSpace(line)
		var v any = line
		switch {
		case line == "" && fl.Default != nil:
			v = fl.Default
		case line == "" && !fl.Required:
			return nil, nil
		case len(fl.Options) > 0:
			var n int
			if _, err := fmt.Sscan(line, &n); err == nil && n >= 1 && n <= len(fl.Options) {
				v = fl.Options[n-1].Value
			}
		}
		if _, err := steer.ValidateForm([]protocol.FormField{fl}, map[string]any{fl.Name: v}); err != nil {
			fmt.Fprintf(t.out, "%s\n", termsafe.Line(err.Error()))
			continue
		}
		return v, nil
	}
}

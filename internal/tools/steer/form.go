package steer

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/mail"
	"net/url"
	"strings"
	"time"

	"gatehouse/internal/protocol"
)

// Form is a question an MCP server puts to the user (elicitation): a
// message and the fields it asks for. It is shown as the model's ask_user
// question is, naming the server.
type Form = protocol.QuestionAskedPayload

// FormAnswer is the user's answer to a form: accept with the values
// (validated against the form), decline, or cancel (dismissed).
type FormAnswer struct {
	Action  string
	Content map[string]any
}

// FormAsker is an Asker that also puts a server's form to its user.
// AskForm blocks like Ask: ctx's error when ctx ends first, ErrNobody when
// no one can answer here (the server is told the user declined).
type FormAsker interface {
	AskForm(ctx context.Context, f Form) (FormAnswer, error)
}

// MaxFieldChars caps one text value of a form's answer.
const MaxFieldChars = 10_000

// ValidateForm checks values against f's fields before they are sent: each
// required field is there, each value has its field's type and fits its
// bounds, options and format; names the form does not ask for are refused.
// Numbers may come as JSON numbers (float64) or as text; it returns the
// values as the server takes them (integers as int64).
func ValidateForm(fields []protocol.FormField, values map[string]any) (map[string]any, error) {
	out := map[string]any{}
	known := map[string]bool{}
	for _, f := range fields {
		known[f.Name] = true
		v, ok := values[f.Name]
		if s, isStr := v.(string); ok && isStr && strings.TrimSpace(s) == "" && f.Type != protocol.FieldString {
			ok = false // an empty number or choice is no answer
		}
		if !ok || v == nil {
			if f.Required {
				return nil, fmt.Errorf("%s: a value is required", label(f))
			}
			continue
		}
		cv, err := checkField(f, v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", label(f), err)
		}
		out[f.Name] = cv
	}
	for k := range values {
		if !known[k] {
			return nil, fmt.Errorf("the form does not ask for %q", k)
		}
	}
	return out, nil
}

func label(f protocol.FormField) string {
	if f.Title != "" {
		return f.Title
	}
	return f.Name
}

func checkField(f protocol.FormField, v any) (any, error) {
	switch f.Type {
	case protocol.FieldBoolean:
		switch b := v.(type) {
		case bool:
			return b, nil
		case string:
			switch strings.ToLower(strings.TrimSpace(b)) {
			case "true", "yes", "y":
				return true, nil
			case "false", "no", "n":
				return false, nil
			}
		}
		return nil, errors.New("yes or no")
	case protocol.FieldNumber, protocol.FieldInteger:
		n, err := number(v)
		if err != nil {
			return nil, err
		}
		if f.Type == protocol.FieldInteger && n != math.Trunc(n) {
			return nil, errors.New("a whole number is required")
		}
		if f.Min != nil && n < *f.Min {
			return nil, fmt.Errorf("at least %v", *f.Min)
		}
		if f.Max != nil && n > *f.Max {
			return nil, fmt.Errorf("at most %v", *f.Max)
		}
		if f.Type == protocol.FieldInteger {
			return int64(n), nil
		}
		return n, nil
	case protocol.FieldEnum:
		s, _ := v.(string)
		for _, o := range f.Options {
			if o.Value == s {
				return s, nil
			}
		}
		return nil, fmt.Errorf("%q is not one of the choices", s)
	case protocol.FieldString:
		s, ok := v.(string)
		if !ok {
			return nil, errors.New("text is required")
		}
		n := len([]rune(s))
		switch {
		case n > MaxFieldChars:
			return nil, fmt.Errorf("at most %d characters", MaxFieldChars)
		case f.MinLength != nil && n < *f.MinLength:
			return nil, fmt.Errorf("at least %d characters", *f.MinLength)
		case f.MaxLength != nil && n > *f.MaxLength:
			return nil, fmt.Errorf("at most %d characters", *f.MaxLength)
		}
		if s == "" && !f.Required {
			return s, nil
		}
		return s, checkFormat(f.Format, s)
	}
	return nil, fmt.Errorf("field type %q is not supported", f.Type)
}

func number(v any) (float64, error) {
	switch n := v.(type) {
	case float64:
		return n, nil
	case int:
		return float64(n), nil
	case int64:
		return float64(n), nil
	case string:
		var f float64
		if _, err := fmt.Sscan(strings.TrimSpace(n), &f); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return f, nil
		}
	}
	return 0, errors.New("a number is required")
}

func checkFormat(format, s string) error {
	switch format {
	case "email":
		if a, err := mail.ParseAddress(s); err != nil || a.Address != s {
			return errors.New("an email address is required")
		}
	case "uri":
		if u, err := url.Parse(s); err != nil || u.Scheme == "" {
			return errors.New("a URI (with its scheme, like https://) is required")
		}
	case "date":
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return errors.New("a date like 2026-12-31 is required")
		}
	case "date-time":
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			return errors.New("a date and time like 2026-12-31T23:59:00Z is required")
		}
	}
	return nil
}

type formAskerKey struct{}

// WithFormAsker records who answers a server's questions for the session a
// call runs for (nil: no one).
func WithFormAsker(ctx context.Context, a FormAsker) context.Context {
	return context.WithValue(ctx, formAskerKey{}, a)
}

// FormAskerFrom returns the asker recorded in ctx, or nil.
func FormAskerFrom(ctx context.Context) FormAsker {
	a, _ := ctx.Value(formAskerKey{}).(FormAsker)
	return a
}

// FormSchema is fields as the flat JSON schema a form request carries (an
// editor's elicitation): each field's properties and the required names.
func FormSchema(fields []protocol.FormField) (map[string]any, []string) {
	props := map[string]any{}
	var required []string
	for _, f := range fields {
		p := map[string]any{"type": f.Type}
		if f.Type == protocol.FieldEnum {
			p["type"] = "string"
			var one []map[string]any
			for _, o := range f.Options {
				title := o.Title
				if title == "" {
					title = o.Value
				}
				one = append(one, map[string]any{"const": o.Value, "title": title})
			}
			p["oneOf"] = one
		}
		for k, v := range map[string]any{"title": f.Title, "description": f.Description, "format": f.Format} {
			if v != "" {
				p[k] = v
			}
		}
		if f.Default != nil {
			p["default"] = f.Default
		}
		if f.Min != nil {
			p["minimum"] = *f.Min
		}
		if f.Max != nil {
			p["maximum"] = *f.Max
		}
		if f.MinLength != nil {
			p["minLength"] = *f.MinLength
		}
		if f.MaxLength != nil {
			p["maxLength"] = *f.MaxLength
		}
		props[f.Name] = p
		if f.Required {
			required = append(required, f.Name)
		}
	}
	return props, required
}

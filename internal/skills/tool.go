package skills

import (
	"context"
	_ "embed"
	"encoding/json"

	"gatehouse/internal/tools"
)

//go:embed skill.md
var toolDescription string

// ToolName is the skill tool's name.
const ToolName = "skill"

// Name names the provider.
func (c *Catalog) Name() string { return "skills" }

// Tools is the skill tool while any skill is offered, none otherwise.
func (c *Catalog) Tools() []tools.Tool {
	if len(c.Names()) == 0 {
		return nil
	}
	return []tools.Tool{skillTool{c}}
}

type skillTool struct{ c *Catalog }

func (t skillTool) Spec() tools.Spec {
	params := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"name": map[string]any{"type": "string", "enum": t.c.Names(), "description": "the skill to load"},
		},
		"required":             []string{"name"},
		"additionalProperties": false,
	}
	b, _ := json.Marshal(params)
	return tools.Spec{Name: ToolName, Description: toolDescription + t.c.Text(), Parameters: b, ReadOnly: true}
}

func (t skillTool) Run(_ context.Context, args json.RawMessage) (tools.Result, error) {
	var in struct {
		Name string `json:"name"`
	}
	if res, ok := tools.DecodeArgs(args, &in); !ok {
		return res, nil
	}
	a, err := t.c.Activate(in.Name)
	if err != nil {
		return tools.Fail(tools.CodeNotFound, err.Error(), ""), nil
	}
	return tools.OK(a)
}

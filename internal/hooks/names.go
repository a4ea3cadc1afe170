package hooks

import (
	"encoding/json"
	"path/filepath"

	"gatehouse/internal/patch"
)

// A call is shown to hooks under its own name and input as the model sent
// them (bash, write_file, apply_patch, mcp__server__tool), and under the
// names other agents use, with their field names, so hooks written for
// them run unchanged:
//
//	bash         → Bash      {command, description?, cwd?} (a write action's text is the command)
//	write_file   → Write     {file_path (absolute), content}
//	read_file    → Read      {file_path (absolute), offset?, limit?}
//	apply_patch  → Edit, MultiEdit, once per file it touches {file_path (absolute), old_string?, new_string?}
//
// A hook whose matcher matches the call's own name sees the own view; one
// matched only by an alias sees that alias's view (for apply_patch once
// per file).

// View is one way a call is shown to a hook.
type View struct {
	Name  string         `json:"tool_name"`
	Input map[string]any `json:"tool_input"`
	// Alias: the view is another agent's name for the call.
	Alias bool `json:"-"`
}

// Call is a tool call as the model made it.
type Call struct {
	ID   string
	Tool string
	Args json.RawMessage
}

// Views are the ways call is shown, its own first; root makes the aliases'
// paths absolute.
func Views(c Call, root string) []View {
	own := map[string]any{}
	_ = json.Unmarshal(c.Args, &own)
	views := []View{{Name: c.Tool, Input: own}}
	abs := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(root, filepath.FromSlash(p))
	}
	str := func(k string) string { s, _ := own[k].(string); return s }
	switch c.Tool {
	case "bash":
		in := map[string]any{"command": str("command")}
		if str("action") == "write" {
			in["command"] = str("input")
		}
		if cwd := str("cwd"); cwd != "" {
			in["cwd"] = abs(cwd)
		}
		views = append(views, View{Name: "Bash", Input: in, Alias: true})
	case "write_file":
		views = append(views, View{Name: "Write", Input: map[string]any{"file_path": abs(str("path")), "content": str("content")}, Alias: true})
	case "read_file":
		in := map[string]any{"file_path": abs(str("path"))}
		if v, ok := own["offset"]; ok {
			in["offset"] = v
		}
		if v, ok := own["limit"]; ok {
			in["limit"] = v
		}
		views = append(views, View{Name: "Read", Input: in, Alias: true})
	case "apply_patch":
		p, err := patch.Parse(str("patch"))
		if err != nil {
			break
		}
		for _, name := range []string{"Edit", "MultiEdit"} {
			for _, op := range p.Ops {
				for _, path := range []string{op.Path, op.MoveTo} {
					if path == "" {
						continue
					}
					in := map[string]any{"file_path": abs(path)}
					if op.Kind == patch.OpAdd {
						in["old_string"], in["new_string"] = "", op.Content
					}
					views = append(views, View{Name: name, Input: in, Alias: true})
				}
			}
		}
	}
	return views
}

// viewsFor are the views hook h runs on: the own view when it matches,
// else every alias view it matches.
func viewsFor(h Hook, views []View) []View {
	if len(views) == 0 || h.Matches(views[0].Name) {
		if len(views) == 0 {
			return []View{{}}
		}
		return views[:1]
	}
	var out []View
	for _, v := range views[1:] {
		if h.Matches(v.Name) {
			out = append(out, v)
		}
	}
	return out
}

// ownInput maps a hook's updatedInput, written in view v's field names,
// back to the call's own arguments (nil: it cannot be).
func ownInput(v View, own map[string]any, root string, updated map[string]any) map[string]any {
	if !v.Alias {
		return updated
	}
	out := map[string]any{}
	for k, val := range own {
		out[k] = val
	}
	rel := func(p string) string {
		if r, err := filepath.Rel(root, p); err == nil && filepath.IsAbs(p) && !startsDotDot(r) {
			return filepath.ToSlash(r)
		}
		return p
	}
	switch v.Name {
	case "Bash":
		if c, ok := updated["command"].(string); ok {
			if out["action"] == "write" {
				out["input"] = c
			} else {
				out["command"] = c
			}
		}
	case "Write":
		if p, ok := updated["file_path"].(string); ok {
			out["path"] = rel(p)
		}
		if c, ok := updated["content"].(string); ok {
			out["content"] = c
		}
	case "Read":
		if p, ok := updated["file_path"].(string); ok {
			out["path"] = rel(p)
		}
	default:
		return nil
	}
	return out
}

func startsDotDot(rel string) bool {
	return rel == ".." || len(rel) > 2 && rel[:3] == ".."+string(filepath.Separator)
}

package review

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"gatehouse/internal/agents"
	"gatehouse/internal/tools"
)

// ProviderName names the findings tool's provider on a reviewer's surface.
const ProviderName = "review"

// MaxFindings bounds one review's findings.
const MaxFindings = 200

// Collector is the findings tool of one review and what it collected.
// It is a tools.Provider: the review gives it to the reviewer's child
// session only.
type Collector struct {
	mu       sync.Mutex
	findings []Finding
}

// Name implements tools.Provider.
func (c *Collector) Name() string { return ProviderName }

// Tools implements tools.Provider.
func (c *Collector) Tools() []tools.Tool { return []tools.Tool{findingsTool{c}} }

// Findings are the findings reported so far, in order.
func (c *Collector) Findings() []Finding {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Finding(nil), c.findings...)
}

type findingsTool struct{ c *Collector }

const findingsSchema = `{
  "type": "object",
  "properties": {
    "findings": {
      "type": "array",
      "description": "One entry per problem.",
      "items": {
        "type": "object",
        "properties": {
          "severity": {"type": "string", "enum": ["critical", "high", "medium", "low", "info"]},
          "file": {"type": "string", "description": "the file's path as the diff names it"},
          "startLine": {"type": "integer", "minimum": 1, "description": "first line, on the diff's new side"},
          "endLine": {"type": "integer", "minimum": 1, "description": "last line, on the diff's new side"},
          "title": {"type": "string", "description": "the problem in a few words"},
          "explanation": {"type": "string", "description": "what goes wrong, and when"},
          "suggestion": {"type": "string", "description": "optional: the replacement text for those lines"}
        },
        "required": ["severity", "file", "startLine", "endLine", "title", "explanation"],
        "additionalProperties": false
      }
    }
  },
  "required": ["findings"],
  "additionalProperties": false
}`

// Spec implements tools.Tool. The tool only records: it reads nothing and
// changes nothing, so it is read-only.
func (findingsTool) Spec() tools.Spec {
	return tools.Spec{Name: agents.FindingsTool, ReadOnly: true, Parameters: json.RawMessage(findingsSchema),
		Description: "Report the problems you found in the diff under review, each with its severity, file, line range (new side), title, explanation and optionally the replacement text. Call it as often as you need; this is the only way a finding reaches the user."}
}

// Run implements tools.Tool: it keeps each valid finding and names the
// invalid ones, so the model can send them again.
func (t findingsTool) Run(_ context.Context, args json.RawMessage) (tools.Result, error) {
	var a struct {
		Findings []json.RawMessage `json:"findings"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return tools.Fail(tools.CodeInvalidArguments, "report_findings takes {\"findings\": [{severity, file, startLine, endLine, title, explanation, suggestion?}]}: "+err.Error(), ""), nil
	}
	var kept []Finding
	var problems []string
	for i, raw := range a.Findings {
		f, err := parseFinding(raw)
		if err != nil {
			problems = append(problems, fmt.Sprintf("findings[%d]: %v", i, err))
			continue
		}
		kept = append(kept, f)
	}
	t.c.mu.Lock()
	room := MaxFindings - len(t.c.findings)
	if len(kept) > room {
		problems = append(problems, fmt.Sprintf("only %d findings are kept per review; %d were left out", MaxFindings, len(kept)-room))
		kept = kept[:max(room, 0)]
	}
	for _, f := range kept {
		f.ID = fmt.Sprintf("f%d", len(t.c.findings)+1)
		t.c.findings = append(t.c.findings, f)
	}
	total := len(t.c.findings)
	t.c.mu.Unlock()
	if len(problems) > 0 {
		return tools.Fail(tools.CodeInvalidArguments, fmt.Sprintf("%d finding(s) kept; these were not, send them again corrected: %s", len(kept), strings.Join(problems, "; ")), ""), nil
	}
	return tools.OK(map[string]any{"ok": true, "kept": len(kept), "total": total})
}

func parseFinding(raw json.RawMessage) (Finding, error) {
	var f struct {
		Severity    string `json:"severity"`
		File        string `json:"file"`
		StartLine   int    `json:"startLine"`
		EndLine     int    `json:"endLine"`
		Title       string `json:"title"`
		Explanation string `json:"explanation"`
		Suggestion  string `json:"suggestion"`
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return Finding{}, err
	}
	sev, err := ParseSeverity(f.Severity)
	if err != nil {
		return Finding{}, err
	}
	if f.EndLine == 0 {
		f.EndLine = f.StartLine
	}
	file := cleanPath(f.File)
	switch {
	case file == "":
		return Finding{}, fmt.Errorf("file is missing")
	case f.StartLine < 1:
		return Finding{}, fmt.Errorf("startLine must be 1 or more")
	case f.EndLine < f.StartLine:
		return Finding{}, fmt.Errorf("endLine %d is before startLine %d", f.EndLine, f.StartLine)
	case strings.TrimSpace(f.Title) == "":
		return Finding{}, fmt.Errorf("title is missing")
	case strings.TrimSpace(f.Explanation) == "":
		return Finding{}, fmt.Errorf("explanation is missing")
	}
	return Finding{Severity: sev, File: file, StartLine: f.StartLine, EndLine: f.EndLine,
		Title: strings.TrimSpace(f.Title), Explanation: strings.TrimSpace(f.Explanation), Suggestion: f.Suggestion}, nil
}

// cleanPath is a path as the diff names it: slashes, no ./, a/ or b/.
func cleanPath(p string) string {
	p = strings.ReplaceAll(strings.TrimSpace(p), "\\", "/")
	p = strings.TrimPrefix(p, "./")
	return p
}

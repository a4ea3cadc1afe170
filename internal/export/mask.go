package export

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"sync"

	"gatehouse/internal/mcp"
)

// Masked stands in for a secret in an export.
const Masked = "[masked]"

// tokenShapes are well-known secret shapes: OpenAI-style keys (sk-…),
// GitHub tokens (ghp_…, gho_…, ghu_…, ghs_…, ghr_…, github_pat_…), AWS
// access key ids (AKIA…), Slack tokens and private-key blocks. Compiled on
// first use (not at every process start).
var tokenShapes = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`sk-[A-Za-z0-9_-]{16,}` +
		`|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}` +
		`|(?:AKIA|ASIA)[0-9A-Z]{16}` +
		`|xox[abprs]-[A-Za-z0-9-]{10,}` +
		`|-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY-----`)
})

// assignment is NAME=value or NAME: value in text, NAME an environment
// variable's (capitals) that marks a secret (mcp.SecretName, the list the
// trust prompts mask by).
var assignment = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b([A-Z_][A-Z0-9_]*)(\s*[=:]\s*)("[^"\n]*"|'[^'\n]*'|[^\s"',;]+)`)
})

// Masker hides secrets in the text of an export: the given secret values
// (the API key), the values of environment variables whose names mark a
// secret, wherever they appear, values assigned to such names in the text
// itself, and well-known token shapes.
type Masker struct {
	values []string // longest first
}

// minSecret is the shortest value masked where it appears by itself (a
// variable set to "1" is not a secret worth blanking every 1 for).
const minSecret = 6

// NewMasker masks secrets (exact values, such as the API key) and the
// values in env (NAME=VALUE entries, os.Environ's form) whose names mark a
// secret.
func NewMasker(secrets []string, env []string) *Masker {
	m := &Masker{}
	seen := map[string]bool{}
	add := func(v string) {
		if v = strings.TrimSpace(v); len(v) >= minSecret && !seen[v] {
			seen[v] = true
			m.values = append(m.values, v)
		}
	}
	for _, s := range secrets {
		add(s)
	}
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && mcp.SecretName(k) {
			add(v)
		}
	}
	sort.Slice(m.values, func(i, j int) bool { return len(m.values[i]) > len(m.values[j]) })
	return m
}

// String masks the secrets in s.
func (m *Masker) String(s string) string {
	for _, v := range m.values {
		s = strings.ReplaceAll(s, v, Masked)
	}
	s = tokenShapes().ReplaceAllString(s, Masked)
	return assignment().ReplaceAllStringFunc(s, func(a string) string {
		sub := assignment().FindStringSubmatch(a)
		if !mcp.SecretName(sub[1]) || sub[3] == Masked || strings.Trim(sub[3], `"'`) == "" {
			return a
		}
		return sub[1] + sub[2] + Masked
	})
}

// JSON masks every string of a JSON document (keys kept), so no masking
// can break its syntax. A document that does not parse is masked as text
// and returned as a JSON string.
func (m *Masker) JSON(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return raw
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		b, _ := json.Marshal(m.String(string(raw)))
		return b
	}
	b, err := json.Marshal(m.walk(v))
	if err != nil {
		return raw
	}
	return b
}

func (m *Masker) walk(v any) any {
	switch x := v.(type) {
	case string:
		return m.String(x)
	case []any:
		for i := range x {
			x[i] = m.walk(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = m.walk(x[k])
		}
	}
	return v
}

package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
)

// Tool names the model sees are mcp__<server>__<tool>, within the model
// APIs' ^[a-zA-Z0-9_-]{1,64}$. A server's slug never holds "__" and slugs
// are unique among servers, so the first "__" after "mcp__" ends the
// server's part and no two servers can make the same name; within one
// server, clashes after sanitising get a numbered suffix.

const (
	namePrefix  = "mcp__"
	maxNameLen  = 64
	maxSlugLen  = 24
	hashSuffixN = 6
)

// sanitize maps s to letters, digits, _ and -, with runs of _ folded to one
// (so the result never holds "__").
func sanitize(s string) string {
	var b strings.Builder
	prevUnderscore := false
	for _, r := range s {
		ok := 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '-'
		if ok {
			b.WriteRune(r)
			prevUnderscore = false
			continue
		}
		if !prevUnderscore {
			b.WriteByte('_')
			prevUnderscore = true
		}
	}
	return b.String()
}

func shortHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])[:hashSuffixN]
}

// fit shortens s to n bytes, keeping it distinct by a hash of the whole.
func fit(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.TrimRight(s[:n-hashSuffixN-1], "_") + "_" + shortHash(s)
}

// uniqueFit sanitises each name to at most room bytes (fallback when
// nothing is left), numbering later clashes with sep: the results are
// distinct, in the input's order.
func uniqueFit(names []string, fallback string, room int, sep string) []string {
	out := make([]string, len(names))
	used := map[string]bool{}
	for i, n := range names {
		s := strings.Trim(sanitize(n), "_")
		if s == "" {
			s = fallback
		}
		s = fit(s, room)
		base := s
		for k := 2; used[s]; k++ {
			s = fit(fmt.Sprintf("%s%s%d", base, sep, k), room)
		}
		used[s] = true
		out[i] = s
	}
	return out
}

// slugs gives each server name a unique slug (sorted input gives stable
// output).
func slugs(names []string) map[string]string {
	out := make(map[string]string, len(names))
	for i, s := range uniqueFit(names, "server", maxSlugLen, "-") {
		out[names[i]] = s
	}
	return out
}

// toolNames gives each of a server's tools (in the server's order) its
// surface name, unique within the server.
func toolNames(slug string, tools []string) []string {
	prefix := namePrefix + slug + "__"
	out := uniqueFit(tools, "tool", maxNameLen-len(prefix), "_")
	for i := range out {
		out[i] = prefix + out[i]
	}
	return out
}

// normalizeSchema returns the tool's input schema as a JSON Schema object
// the registry and the model APIs accept: an object at the top with
// properties. A schema that is not an object schema is replaced by an empty
// one (the server still validates what it gets).
func normalizeSchema(in any) json.RawMessage {
	empty := json.RawMessage(`{"type":"object","properties":{}}`)
	if in == nil {
		return empty
	}
	b, err := json.Marshal(in)
	if err != nil {
		return empty
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil || m == nil {
		return empty
	}
	if t, ok := m["type"]; ok && t != "object" {
		return empty
	}
	m["type"] = "object"
	if _, ok := m["properties"].(map[string]any); !ok {
		m["properties"] = map[string]any{}
	}
	delete(m, "$schema")
	out, err := json.Marshal(m)
	if err != nil {
		return empty
	}
	return out
}

// Package frontmatter reads the front matter of a Markdown file (an agent
// definition, a SKILL.md): the YAML between a first line --- and the next
// line ---. It reads leniently, as the Agent Skills client guide asks: a
// top-level value holding ": " unquoted ("description: Use when: the user
// asks") is quoted and the whole parsed again; the first error is the one
// reported when that fails too.
package frontmatter

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// The two ways a file has no front matter to read.
var (
	ErrNone      = errors.New("no front matter: the file must start with a line ---")
	ErrNotClosed = errors.New("the front matter is not closed by a line ---")
)

// Doc is a file cut at its front matter.
type Doc struct {
	// Lines are the front matter's lines; Lines[i] is the file's line i+2.
	Lines []string
	// Body is what follows the closing line, leading blank lines cut.
	Body string
}

// Split cuts data (a byte-order mark and CRLF line ends allowed) into its
// front matter and body, or fails with ErrNone or ErrNotClosed.
func Split(data []byte) (Doc, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	if strings.TrimSpace(lines[0]) != "---" {
		return Doc{}, ErrNone
	}
	for i := 1; i < len(lines); i++ {
		if strings.TrimRight(lines[i], " \t") == "---" {
			return Doc{Lines: lines[1:i], Body: strings.TrimLeft(strings.Join(lines[i+1:], "\n"), "\n")}, nil
		}
	}
	return Doc{}, ErrNotClosed
}

// Error is front matter that is not YAML, at Line of the file (1-based).
type Error struct {
	Line int
	Msg  string
}

func (e *Error) Error() string {
	return fmt.Sprintf("line %d: the front matter is not valid YAML: %s", e.Line, e.Msg)
}

// Root parses the front matter: its top node (nil when it holds nothing;
// a mapping in a well-formed file, whose keys' Line + 1 is their file
// line), or an *Error.
func (d Doc) Root() (*yaml.Node, error) {
	var doc yaml.Node
	err := yaml.Unmarshal([]byte(strings.Join(d.Lines, "\n")), &doc)
	if err != nil {
		if fixed, ok := quoteColons(d.Lines); ok {
			var again yaml.Node
			if yaml.Unmarshal([]byte(fixed), &again) == nil {
				doc, err = again, nil
			}
		}
	}
	if err != nil {
		return nil, &Error{Line: badLine(d.Lines, err), Msg: yamlMessage(err)}
	}
	if len(doc.Content) != 1 {
		return nil, nil
	}
	return doc.Content[0], nil
}

// JSON is the value of n as JSON (a mapping whose keys are not all text is
// an error).
func JSON(n *yaml.Node) ([]byte, error) {
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, errors.New("not in a shape JSON can hold (a key that is not text?)")
	}
	return b, nil
}

// AgentHooks reads an agent definition's name and hooks: the hooks key's
// value as a hooks file holds it, {"hooks": …} in JSON (nil when the
// definition has none, or when its front matter does not read: such a
// definition never loads, so it has no hooks to run). The trust store
// hashes the definitions this finds hooks in, and the hooks package runs
// what it reads: one reading for both. The error is a hooks value JSON
// cannot hold.
func AgentHooks(data []byte) (name string, hooks []byte, err error) {
	doc, err := Split(data)
	if err != nil {
		return "", nil, nil
	}
	root, err := doc.Root()
	if err != nil || root == nil || root.Kind != yaml.MappingNode {
		return "", nil, nil
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "name":
			name = v.Value
		case "hooks":
			if v.Tag == "!!null" {
				continue
			}
			b, err := JSON(v)
			if err != nil {
				return name, nil, fmt.Errorf("line %d: hooks: %w", k.Line+1, err)
			}
			hooks = []byte(`{"hooks":` + string(b) + `}`)
		}
	}
	return name, hooks, nil
}

// plainKey matches a top-level "key: value" line whose value is plain
// (not quoted, not a block or flow value).
var plainKey = regexp.MustCompile(`^([A-Za-z0-9_-]+):[ \t]+([^'"|>\[{&*!#\s].*)$`)

// oddKey matches a top-level "key: value" line whose value starts with a
// character YAML reserves ("description: *bold* claims", "@team").
var oddKey = regexp.MustCompile("^([A-Za-z0-9_-]+):[ \t]+([@`%]|\\*\\S*\\s)(.*)$")

// quoteColons quotes each top-level plain value that holds ": " or starts
// with a reserved character, and reports whether it changed anything.
func quoteColons(lines []string) (string, bool) {
	out := make([]string, len(lines))
	changed := false
	for i, l := range lines {
		out[i] = l
		if m := plainKey.FindStringSubmatch(l); m != nil && strings.Contains(m[2], ": ") {
			out[i] = m[1] + ": " + strconv.Quote(strings.TrimSpace(m[2]))
			changed = true
		} else if m := oddKey.FindStringSubmatch(l); m != nil {
			out[i] = m[1] + ": " + strconv.Quote(strings.TrimSpace(m[2]+m[3]))
			changed = true
		}
	}
	return strings.Join(out, "\n"), changed
}

var yamlLineRe = regexp.MustCompile(`line (\d+)`)

// badLine is the file line where the front matter stops parsing: the
// first line whose prefix of the front matter fails (the YAML parser's own
// line numbers sometimes name the line before), else the one err names.
func badLine(front []string, err error) int {
	for k := 1; k <= len(front); k++ {
		var n yaml.Node
		if yaml.Unmarshal([]byte(strings.Join(front[:k], "\n")), &n) != nil {
			return k + 1 // past the --- line
		}
	}
	if m := yamlLineRe.FindStringSubmatch(err.Error()); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n + 1
	}
	return 2
}

func yamlMessage(err error) string {
	s := strings.TrimPrefix(err.Error(), "yaml: ")
	return strings.TrimPrefix(yamlLineRe.ReplaceAllString(s, ""), ": ")
}

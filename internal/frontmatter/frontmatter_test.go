package frontmatter

import (
	"errors"
	"testing"
)

// Front matter is cut at its lines (a byte-order mark and CRLF allowed)
// and read leniently: an unquoted ": " or a reserved first character in a
// top-level value parses; what no repair makes YAML fails at its line.
func TestSplitAndRead(t *testing.T) {
	if _, err := Split([]byte("name: x\n")); !errors.Is(err, ErrNone) {
		t.Errorf("no front matter: %v", err)
	}
	if _, err := Split([]byte("---\nname: x\n")); !errors.Is(err, ErrNotClosed) {
		t.Errorf("not closed: %v", err)
	}
	d, err := Split([]byte("\xef\xbb\xbf---\r\nname: x\r\ndescription: Use when: asked\r\nnote: *bold* claims\r\n---\r\n\r\nBody.\r\n"))
	if err != nil || d.Body != "Body.\n" || len(d.Lines) != 3 {
		t.Fatalf("%+v %v", d, err)
	}
	root, err := d.Root()
	if err != nil || len(root.Content) != 6 || root.Content[3].Value != "Use when: asked" || root.Content[5].Value != "*bold* claims" {
		t.Fatalf("%+v %v", root, err)
	}
	d, _ = Split([]byte("---\nname: x\nhooks: [\n---\n"))
	var bad *Error
	if _, err := d.Root(); !errors.As(err, &bad) || bad.Line != 3 {
		t.Errorf("bad YAML: %v", err)
	}
}

// AgentHooks gives a definition's name and its hooks as a hooks file
// holds them, nil when it has none.
func TestAgentHooks(t *testing.T) {
	name, b, err := AgentHooks([]byte("---\nname: guard\nhooks:\n  Stop:\n    - hooks:\n        - {type: command, command: ./x, timeout: 5}\n---\n"))
	if err != nil || name != "guard" || string(b) != `{"hooks":{"Stop":[{"hooks":[{"command":"./x","timeout":5,"type":"command"}]}]}}` {
		t.Errorf("%q %s %v", name, b, err)
	}
	if _, b, err := AgentHooks([]byte("---\nname: plain\n---\n")); b != nil || err != nil {
		t.Errorf("no hooks: %s %v", b, err)
	}
	if _, _, err := AgentHooks([]byte("---\nhooks:\n  [a]: b\n---\n")); err == nil {
		t.Error("hooks keyed by a list read")
	}
}

package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"time"
)

// BareGopls is a bare LSP client of one gopls, for the benchmark: the time
// of a one-line change's diagnostics with nothing of Gatehouse around.
type BareGopls struct {
	cmd  *exec.Cmd
	conn *Conn
	mu   sync.Mutex
	got  map[int]chan struct{}
	uri  string
	ver  int
}

// StartBareGopls starts gopls (a path) on root and opens file with text.
func StartBareGopls(gopls, root, file, text string) (*BareGopls, error) {
	b := &BareGopls{got: map[int]chan struct{}{}, uri: fileURI(file), ver: 1}
	b.cmd = exec.Command(gopls)
	b.cmd.Dir, b.cmd.Env = root, serverEnv(os.Environ(), nil)
	in, _ := b.cmd.StdinPipe()
	out, _ := b.cmd.StdoutPipe()
	if err := b.cmd.Start(); err != nil {
		return nil, err
	}
	b.conn = NewConn(out, in, func(method string, params json.RawMessage) (any, error) {
		if method == "textDocument/publishDiagnostics" {
			var p publishParams
			if json.Unmarshal(params, &p) == nil && p.Version != nil {
				b.mu.Lock()
				if ch := b.got[*p.Version]; ch != nil {
					close(ch)
					delete(b.got, *p.Version)
				}
				b.mu.Unlock()
			}
		}
		if method == "workspace/configuration" {
			return []any{map[string]any{}}, nil
		}
		return nil, nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := b.conn.Call(ctx, "initialize", map[string]any{"processId": nil, "rootUri": fileURI(root),
		"capabilities": map[string]any{"textDocument": map[string]any{"publishDiagnostics": map[string]any{"versionSupport": true}}}}, nil); err != nil {
		return nil, err
	}
	b.conn.Notify("initialized", map[string]any{})
	ch := b.expect(1)
	b.conn.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": b.uri, "languageId": "go", "version": 1, "text": text}})
	select {
	case <-ch:
	case <-time.After(time.Minute):
		return nil, fmt.Errorf("gopls published nothing for the opened file")
	}
	return b, nil
}

func (b *BareGopls) expect(v int) chan struct{} {
	ch := make(chan struct{})
	b.mu.Lock()
	b.got[v] = ch
	b.mu.Unlock()
	return ch
}

// Change sends text as the next version and waits for its diagnostics.
func (b *BareGopls) Change(text string) (time.Duration, error) {
	b.ver++
	ch := b.expect(b.ver)
	start := time.Now()
	b.conn.Notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": b.uri, "version": b.ver},
		"contentChanges": []map[string]string{{"text": text}}})
	select {
	case <-ch:
		return time.Since(start), nil
	case <-time.After(time.Minute):
		return 0, fmt.Errorf("no diagnostics for version %d", b.ver)
	}
}

// Close ends the bare gopls.
func (b *BareGopls) Close() {
	b.conn.Close()
	b.cmd.Process.Kill()
	b.cmd.Wait()
}

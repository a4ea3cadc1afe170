package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// ErrClosed is the error of a call on a connection whose server went away.
var ErrClosed = errors.New("the language server's connection closed")

// rpcError is an error a server answered with.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("language server: %s (%d)", e.Message, e.Code) }

// message is any JSON-RPC 2.0 message: a request (ID and Method), a
// notification (Method) or a response (ID).
type message struct {
	JSONRPC string           `json:"jsonrpc"`
	ID      *json.RawMessage `json:"id,omitempty"`
	Method  string           `json:"method,omitempty"`
	Params  json.RawMessage  `json:"params,omitempty"`
	Result  json.RawMessage  `json:"result,omitempty"`
	Error   *rpcError        `json:"error,omitempty"`
}

// Handler answers what the server sends: notifications (reply nil) and
// requests, whose result (or error) goes back to the server.
type Handler func(method string, params json.RawMessage) (result any, err error)

// Conn is a JSON-RPC 2.0 connection with LSP's framing (Content-Length
// headers) over a server's stdin and stdout.
type Conn struct {
	w       io.WriteCloser
	handler Handler

	wmu sync.Mutex // one message written at a time

	mu      sync.Mutex
	next    int64
	pending map[int64]chan *message
	err     error
	done    chan struct{}
}

// NewConn starts reading r; h runs for each message the server sends, on
// the reading goroutine (it must not call back into the connection and
// wait).
func NewConn(r io.Reader, w io.WriteCloser, h Handler) *Conn {
	c := &Conn{w: w, handler: h, pending: map[int64]chan *message{}, done: make(chan struct{})}
	go c.read(bufio.NewReaderSize(r, 64<<10))
	return c
}

// Done is closed when the connection ended; Err then says why.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err is why the connection ended (nil while it is up).
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Close closes the writing side (the server sees EOF on stdin).
func (c *Conn) Close() error { return c.w.Close() }

// Call sends a request and decodes its result into out (nil: ignored).
func (c *Conn) Call(ctx context.Context, method string, params, out any) error {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return c.err
	}
	c.next++
	id := c.next
	ch := make(chan *message, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	raw := json.RawMessage(strconv.FormatInt(id, 10))
	if err := c.write(&message{ID: &raw, Method: method}, params); err != nil {
		c.forget(id)
		return err
	}
	select {
	case m := <-ch:
		if m == nil {
			return c.Err()
		}
		if m.Error != nil {
			return m.Error
		}
		if out != nil && len(m.Result) > 0 {
			return json.Unmarshal(m.Result, out)
		}
		return nil
	case <-ctx.Done():
		c.forget(id)
		_ = c.Notify("$/cancelRequest", map[string]int64{"id": id})
		return ctx.Err()
	}
}

func (c *Conn) forget(id int64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// Notify sends a notification.
func (c *Conn) Notify(method string, params any) error {
	return c.write(&message{Method: method}, params)
}

func (c *Conn) write(m *message, params any) error {
	m.JSONRPC = "2.0"
	if params != nil {
		b, err := json.Marshal(params)
		if err != nil {
			return err
		}
		m.Params = b
	}
	return c.send(m)
}

func (c *Conn) send(m *message) error {
	body, err := json.Marshal(m)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if err := c.Err(); err != nil {
		return err
	}
	buf := make([]byte, 0, len(body)+32)
	buf = append(buf, "Content-Length: "...)
	buf = strconv.AppendInt(buf, int64(len(body)), 10)
	buf = append(buf, "\r\n\r\n"...)
	buf = append(buf, body...)
	if _, err := c.w.Write(buf); err != nil {
		return fmt.Errorf("%w: %v", ErrClosed, err)
	}
	return nil
}

func (c *Conn) read(r *bufio.Reader) {
	var err error
	for {
		var m *message
		if m, err = readMessage(r); err != nil {
			break
		}
		switch {
		case m.Method == "" && m.ID != nil: // a response
			id, perr := strconv.ParseInt(string(*m.ID), 10, 64)
			if perr != nil {
				continue
			}
			c.mu.Lock()
			ch := c.pending[id]
			delete(c.pending, id)
			c.mu.Unlock()
			if ch != nil {
				ch <- m
			}
		case m.ID != nil: // a request of the server's
			res, herr := c.handle(m)
			reply := &message{JSONRPC: "2.0", ID: m.ID}
			if herr != nil {
				reply.Error = &rpcError{Code: -32601, Message: herr.Error()}
			} else {
				b, _ := json.Marshal(res)
				reply.Result = b
			}
			_ = c.send(reply)
		default:
			_, _ = c.handle(m)
		}
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		err = ErrClosed
	} else {
		err = fmt.Errorf("%w: %v", ErrClosed, err)
	}
	c.mu.Lock()
	c.err = err
	for id, ch := range c.pending {
		close(ch)
		delete(c.pending, id)
	}
	c.mu.Unlock()
	close(c.done)
}

func (c *Conn) handle(m *message) (any, error) {
	if c.handler == nil {
		return nil, nil
	}
	return c.handler(m.Method, m.Params)
}

// maxMessage bounds one message (a server's diagnostics of a huge file).
const maxMessage = 64 << 20

func readMessage(r *bufio.Reader) (*message, error) {
	length := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		k, v, ok := strings.Cut(line, ":")
		if ok && strings.EqualFold(strings.TrimSpace(k), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 0 || n > maxMessage {
				return nil, fmt.Errorf("bad Content-Length %q", v)
			}
			length = n
		}
	}
	if length < 0 {
		return nil, errors.New("a message without Content-Length")
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, err
	}
	var m message
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, fmt.Errorf("a message that is not JSON: %w", err)
	}
	return &m, nil
}

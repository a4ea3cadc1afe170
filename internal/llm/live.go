package llm

import (
	"context"
	"crypto/sha256"
	"fmt"
	"sync"
)

// Live is a model client for the configuration in effect at each request:
// it asks config before every Stream and builds a new Client only when the
// configuration changed, so a change on the settings screen applies to the
// next request. The key of its cache is a hash: the API key itself is kept
// only inside the Client. Safe for concurrent use.
type Live struct {
	config func() Config

	mu     sync.Mutex
	key    [sha256.Size]byte
	client *Client
}

// NewLive returns a Live reading its configuration from config.
func NewLive(config func() Config) *Live { return &Live{config: config} }

// Stream implements the agent's Model with the client for the configuration
// in effect now.
func (l *Live) Stream(ctx context.Context, req Request, onText func(string)) (Response, error) {
	c, err := l.current()
	if err != nil {
		return Response{}, err
	}
	return c.Stream(ctx, req, onText)
}

// ContextWindow is the current client's (agent.Windowed): the window of
// the model in effect now, and where that figure came from.
func (l *Live) ContextWindow(ctx context.Context) Window {
	c, err := l.current()
	if err != nil {
		return Window{}
	}
	return c.ContextWindow(ctx)
}

// ServerVision is the current client's: what the server's /models says of
// whether the model in effect now takes images.
func (l *Live) ServerVision(ctx context.Context) Vision {
	c, err := l.current()
	if err != nil {
		return Vision{Source: VisionUnknown}
	}
	return c.ServerVision(ctx)
}

func (l *Live) current() (*Client, error) {
	cfg := l.config()
	k := configKey(cfg)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.client == nil || l.key != k {
		c, err := New(cfg)
		if err != nil {
			return nil, err
		}
		l.client, l.key = c, k
	}
	return l.client, nil
}

// configKey hashes what makes two configurations build different clients.
func configKey(c Config) [sha256.Size]byte {
	return sha256.Sum256(fmt.Appendf(nil, "%q\x00%q\x00%q\x00%q\x00%d\x00%d\x00%p",
		c.API, c.BaseURL, c.Model, c.APIKey, c.MaxRetries, c.RequestTimeout, c.HTTPClient))
}

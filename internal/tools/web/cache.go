package web

import (
	"sync"
	"time"
)

// cacheTTL is how long a fetched page is served again without fetching.
const cacheTTL = 15 * time.Minute

// cacheSize bounds the pages kept; the oldest goes first.
const cacheSize = 64

type cached struct {
	p  page
	at time.Time
}

// cache keeps converted pages by the URL fetched, for cacheTTL.
type cache struct {
	mu    sync.Mutex
	now   func() time.Time
	pages map[string]cached
}

func newCache(now func() time.Time) *cache {
	return &cache{now: now, pages: map[string]cached{}}
}

func (c *cache) get(key string) (page, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.pages[key]
	if !ok {
		return page{}, false
	}
	if c.now().Sub(e.at) >= cacheTTL {
		delete(c.pages, key)
		return page{}, false
	}
	return e.p, true
}

func (c *cache) put(key string, p page) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	for k, e := range c.pages {
		if now.Sub(e.at) >= cacheTTL {
			delete(c.pages, k)
		}
	}
	if len(c.pages) >= cacheSize {
		oldest := ""
		for k, e := range c.pages {
			if oldest == "" || e.at.Before(c.pages[oldest].at) {
				oldest = k
			}
		}
		delete(c.pages, oldest)
	}
	c.pages[key] = cached{p: p, at: now}
}

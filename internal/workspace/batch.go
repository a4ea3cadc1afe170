package workspace

import "sync"

// Batch resolves the paths of one call that touches many files (a patch
// over hundreds of them) as Resolve does, but looks each folder on the way
// up once: it remembers the folders it found, existing and not symlinks.
// It therefore assumes those folders do not change while the call resolves
// its paths, the race Resolve and the later open already leave open (see
// the package doc). Safe for concurrent use; make one per call.
type Batch struct {
	w    *Workspace
	dirs dirCache
}

// Batch returns a new Batch over w.
func (w *Workspace) Batch() *Batch { return &Batch{w: w} }

// Resolve is Workspace.Resolve, with the folders found so far remembered.
func (b *Batch) Resolve(path string, access Access) (string, error) {
	return b.w.resolve(path, access, &b.dirs, true)
}

// dirCache is a set of resolved folders; a nil *dirCache is empty and
// remembers nothing.
type dirCache struct {
	mu sync.Mutex
	m  map[string]bool
}

func (c *dirCache) has(dir string) bool {
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[dir]
}

func (c *dirCache) add(dir string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]bool{}
	}
	c.m[dir] = true
}

// Package fontstack answers, once per run, which family of a CSS font stack
// the window's WebKitGTK would draw with, so the page can name that family
// first.
//
// WebKitGTK resolves a stack one family at a time, asking fontconfig, and it
// does so again for every size and weight the page uses: each family before
// the one that exists costs a fontconfig match per size and weight. On a
// machine with none of the first names of a cross-desktop stack, that was
// most of the style work of the first frame (issue 27). Asked here once, the
// page starts its stacks with the family that wins, and WebKit finds it on
// its first lookup.
//
// The rule is WebKitGTK's (FontCache::createFontPlatformData): the name goes
// through the user's fontconfig configuration, then fontconfig's best match
// counts only when one of its families is bound strongly or equals the
// configured family, or the name is a generic family; otherwise the next
// name is tried. So aliases the user set (system-ui to a family of their
// choice, say) win here as they do in the window.
package fontstack

import "sync"

// Generic families fontconfig always answers, which WebKit accepts whatever
// family they give.
var generic = map[string]bool{"sans": true, "sans-serif": true, "serif": true, "monospace": true, "fantasy": true, "cursive": true}

// Resolver resolves stacks against one fontconfig configuration, loaded on
// first use (or by Warm). Safe for concurrent use.
type Resolver struct {
	load func() (config, error)
	once sync.Once
	cfg  config
	err  error
	mu   sync.Mutex // fontconfig configurations are not safe for concurrent matching
}

// config is a loaded fontconfig configuration.
type config interface {
	// match returns the family fontconfig draws name with when WebKit would
	// accept it, and whether it would.
	match(name string, generic bool) (string, bool)
}

// New resolves with the user's fontconfig configuration, the one the
// window's WebKit loads.
func New() *Resolver { return &Resolver{load: loadDefault} }

// Warm loads the configuration in the background, so a later Resolve does
// not wait for it.
func (r *Resolver) Warm() { go r.init() }

func (r *Resolver) init() error {
	r.once.Do(func() { r.cfg, r.err = r.load() })
	return r.err
}

// Resolve returns the family of stack WebKitGTK would draw with, the name
// fontconfig gives for it, or "" when none of them would be used (the page
// then keeps its stack as it is) or fontconfig is not available.
func (r *Resolver) Resolve(stack []string) string {
	if r.init() != nil {
		return ""
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, name := range stack {
		if family, ok := r.cfg.match(name, generic[name]); ok {
			return family
		}
	}
	return ""
}

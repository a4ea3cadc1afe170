package netproxy

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Call is one command's identity at the proxy: what it may reach and what
// it reached. Close it when the command ended.
type Call struct {
	p          *Proxy
	user, pass string
	allow      func(domain string) bool

	mu               sync.Mutex
	reached, refused []string
}

// Open gives a command an identity; allow says whether it may reach a
// domain (asked on every request, so a domain allowed meanwhile counts).
func (p *Proxy) Open(allow func(domain string) bool) *Call {
	var b [16]byte
	rand.Read(b[:])
	p.mu.Lock()
	defer p.mu.Unlock()
	p.next++
	c := &Call{p: p, user: "cmd" + strconv.Itoa(p.next), pass: hex.EncodeToString(b[:]), allow: allow}
	p.calls[c.user] = c
	return c
}

// URL is the proxy's URL with the call's credentials.
func (c *Call) URL() string {
	return "http://" + c.user + ":" + c.pass + "@127.0.0.1:" + strconv.Itoa(c.p.Port())
}

// Env are the variables that send a command's web traffic through the
// proxy (HTTP_PROXY, HTTPS_PROXY and ALL_PROXY, each in both cases), and
// keep this machine's own servers direct (NO_PROXY).
func (c *Call) Env() []string {
	u := c.URL()
	var env []string
	for _, n := range []string{"http_proxy", "https_proxy", "all_proxy"} {
		env = append(env, n+"="+u, strings.ToUpper(n)+"="+u)
	}
	return append(env, "no_proxy="+noProxy, "NO_PROXY="+noProxy)
}

const noProxy = "localhost,127.0.0.1,::1"

// Domains are the domains the command reached and those refused, sorted.
func (c *Call) Domains() (reached, refused []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.reached), slices.Clone(c.refused)
}

// Close ends the identity: requests with it are refused from now on.
func (c *Call) Close() {
	c.p.mu.Lock()
	delete(c.p.calls, c.user)
	c.p.mu.Unlock()
}

func (c *Call) note(list *[]string, domain string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if i, found := slices.BinarySearch(*list, domain); !found {
		*list = slices.Insert(*list, i, domain)
	}
}

// call finds the identity of r's Proxy-Authorization.
func (p *Proxy) call(r *http.Request) *Call {
	user, pass, ok := proxyAuth(r.Header.Get("Proxy-Authorization"))
	if !ok {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if c := p.calls[user]; c != nil && c.pass == pass {
		return c
	}
	return nil
}

func proxyAuth(h string) (user, pass string, ok bool) {
	enc, ok := strings.CutPrefix(h, "Basic ")
	if !ok {
		return "", "", false
	}
	b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(enc))
	if err != nil {
		return "", "", false
	}
	return strings.Cut(string(b), ":")
}

// RefusedHeader names the domain a 403 of the proxy refused.
const RefusedHeader = "X-Gatehouse-Refused"

// Refusal is the proxy's words for a refused domain.
func Refusal(domain string) string {
	return "Gatehouse's network proxy refused " + domain + ": it is not on the network allow-list (Settings → Network). Only the user can allow it."
}

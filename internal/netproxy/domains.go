package netproxy

import (
	"fmt"
	"net"
	"slices"
	"strings"
)

// Network modes of the Network setting.
const (
	// ModeOn: confined commands reach the network directly.
	ModeOn = "on"
	// ModeOff: no TCP, MPTCP or UDP connection anywhere.
	ModeOff = "off"
	// ModeAllowList: commands reach the web only through the proxy, to the
	// domains on the list; web_fetch only those domains.
	ModeAllowList = "allow-list"
)

// ValidMode reports whether m is a network mode ("" is on).
func ValidMode(m string) bool { return m == "" || m == ModeOn || m == ModeOff || m == ModeAllowList }

// Match reports whether domain is on list. An entry is an exact host name
// ("registry.npmjs.org") or "*." and a name, which matches every name
// below it but not the name itself ("*.github.com" matches
// "api.github.com", not "github.com"): write both to allow both, as
// Claude Code's and sandbox-runtime's rules read.
func Match(list []string, domain string) bool {
	domain = Normalize(domain)
	if domain == "" {
		return false
	}
	for _, e := range list {
		if rest, ok := strings.CutPrefix(e, "*."); ok {
			if strings.HasSuffix(domain, "."+rest) {
				return true
			}
		} else if e == domain {
			return true
		}
	}
	return false
}

// Normalize is a host name as rules compare it: lower case, without a
// trailing dot, brackets or port.
func Normalize(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.Trim(strings.ToLower(strings.TrimSpace(host)), "[]"), ".")
	return host
}

// CleanList checks an allow-list the user edits: each entry a host name or
// "*." and a name (no scheme, path or port), lower-cased; blank lines
// dropped, each entry once.
func CleanList(in []string) ([]string, error) {
	out := []string{}
	for _, e := range in {
		if strings.TrimSpace(e) == "" {
			continue
		}
		e, err := CleanEntry(e)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out, nil
}

// CleanEntry checks one entry as Match reads it (a host name, or "*." and
// a name: no scheme, path or port) and returns it lower-cased, without a
// trailing dot.
func CleanEntry(e string) (string, error) {
	e = strings.ToLower(strings.TrimSpace(e))
	if err := checkName(strings.TrimPrefix(e, "*.")); err != nil {
		return "", fmt.Errorf("%q is not a domain (%v): write a name like example.com or *.example.com", e, err)
	}
	return strings.TrimSuffix(e, "."), nil
}

func checkName(n string) error {
	n = strings.TrimSuffix(n, ".")
	switch {
	case n == "":
		return fmt.Errorf("empty")
	case strings.Contains(n, "://"):
		return fmt.Errorf("a URL, not a name")
	case strings.ContainsAny(n, "/:@ *"):
		return fmt.Errorf("a path, port, user or wildcard inside")
	}
	for _, label := range strings.Split(n, ".") {
		if label == "" || len(label) > 63 {
			return fmt.Errorf("an empty or overlong label")
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return fmt.Errorf("the character %q", c)
			}
		}
	}
	return nil
}

package settings

import (
	"fmt"
	"net/url"
	"strings"
)

// KeyRequest is the key part of a form that names a server (the settings
// screen: its connection test, and saving a new base URL).
type KeyRequest struct {
	// BaseURL is the server the request goes to.
	BaseURL string
	// Typed is the key the user typed ("" when none).
	Typed string
	// Clear: the user is removing the key in effect; send none.
	Clear bool
	// SendToOther: the user confirmed sending the key in effect to a
	// server other than its own.
	SendToOther bool
}

// KeyFor returns the key a request to r.BaseURL may carry. A typed key goes
// where the user sends it. The key in effect goes only to the base URL in
// effect, the one it was saved (or given) for, unless the user confirmed
// sending it elsewhere. Otherwise the request carries no key, and withheld
// says why in words the user can act on.
func (e Effective) KeyFor(r KeyRequest) (key APIKey, withheld error) {
	if typed := NewAPIKey(r.Typed); typed.IsSet() {
		return typed, nil
	}
	if r.Clear || !e.APIKey.IsSet() {
		return APIKey{}, nil
	}
	if r.SendToOther || SameServer(r.BaseURL, e.Settings.BaseURL) {
		return e.APIKey, nil
	}
	return APIKey{}, fmt.Errorf("the saved key is kept for %s, not %s: type the key for this server, or confirm sending the saved key to it", e.Settings.BaseURL, strings.TrimSpace(r.BaseURL))
}

// SameServer reports whether a and b are the same base URL, up to the case
// of the scheme and host, a default port and a trailing slash.
func SameServer(a, b string) bool {
	ua, errA := url.Parse(strings.TrimSpace(a))
	ub, errB := url.Parse(strings.TrimSpace(b))
	if errA != nil || errB != nil {
		return false
	}
	norm := func(u *url.URL) string {
		host := strings.ToLower(u.Hostname())
		port := u.Port()
		scheme := strings.ToLower(u.Scheme)
		if (scheme == "https" && port == "443") || (scheme == "http" && port == "80") {
			port = ""
		}
		return scheme + "://" + host + ":" + port + "/" + strings.Trim(u.EscapedPath(), "/") + "?" + u.RawQuery
	}
	return ua.Host != "" && norm(ua) == norm(ub)
}

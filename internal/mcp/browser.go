package mcp

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// Browser servers. A server that drives a web browser is, like every
// program of the user's own list, outside the sandbox: its browser reaches
// any address, past the network allow-list. One the app recognises can be
// started with the app's filtering proxy instead (ServerConfig.AppProxy):
// its browser then sends every page through the proxy, which holds it to
// the allow-list. Only @playwright/mcp is recognised: its --proxy-server
// is the flag added, and its browser honours it for every page.

// browserPrograms are the package and program names of @playwright/mcp.
var browserPrograms = []string{"@playwright/mcp", "playwright-mcp", "mcp-server-playwright"}

// proxyFlag is the flag that gives @playwright/mcp's browser a proxy.
const proxyFlag = "--proxy-server"

// Browser reports whether the server is a recognised browser server: its
// program or one of its arguments names @playwright/mcp (npx's package
// argument, a path into its package, its program).
func (c ServerConfig) Browser() bool {
	if c.Remote() {
		return false
	}
	for _, w := range append([]string{c.Command}, c.Args...) {
		w = filepath.ToSlash(w)
		for _, name := range browserPrograms {
			if w == name || strings.HasPrefix(w, name+"@") || strings.Contains(w, "/"+name+"/") ||
				strings.HasSuffix(w, "/"+name) || strings.Contains(w, "node_modules/"+name) {
				return true
			}
		}
	}
	return false
}

// withProxy is c with its browser sent through the proxy at url: a
// --proxy-server the user gave is replaced.
func (c ServerConfig) withProxy(url string) ServerConfig {
	args := slices.DeleteFunc(slices.Clone(c.Args), func(a string) bool { return strings.HasPrefix(a, proxyFlag+"=") })
	if i := slices.Index(args, proxyFlag); i >= 0 && i+1 < len(args) {
		args = slices.Delete(args, i, i+2)
	}
	c.Args = append(args, proxyFlag+"="+url)
	return c
}

// launchConfig is the configuration a server starts with: a browser server
// the user asked to start with the app's proxy gets it, and fails to start,
// saying why, when the proxy cannot be had.
func (m *Manager) launchConfig(c ServerConfig) (ServerConfig, error) {
	if !c.AppProxy || !c.Browser() {
		return c, nil
	}
	if m.opts.Proxy == nil {
		return c, errors.New("it is set to start with the app's proxy, which this host does not run")
	}
	url, err := m.opts.Proxy()
	if err != nil {
		return c, fmt.Errorf("it is set to start with the app's proxy, which did not start: %w", err)
	}
	return c.withProxy(url), nil
}

// Package mcptest finds the npm MCP servers the tests run (installed by
// `make mcp-servers` from internal/mcp/testdata/servers' lockfile): the
// reference servers and the browser server, @playwright/mcp.
package mcptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// Server returns the entry script of the pinned npm package pkg (under
// @modelcontextprotocol, like "server-everything"), skipping the test when
// it or node is not installed.
func Server(t testing.TB, pkg string) string {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	js := filepath.Join(filepath.Dir(here), "..", "testdata", "servers", "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js")
	if _, err := os.Stat(js); err != nil {
		t.Skipf("%s is not installed: run `make mcp-servers` (make test does)", pkg)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	return js
}

// Chromium is Debian's Chromium, the browser the e2e tests and the
// browser server's test drive (installed by `make deps`).
const Chromium = "/usr/bin/chromium"

// Browser returns the entry script of the pinned @playwright/mcp, skipping
// the test when it, node or Chromium is not installed.
func Browser(t testing.TB) string {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	js := filepath.Join(filepath.Dir(here), "..", "testdata", "servers", "node_modules", "@playwright", "mcp", "cli.js")
	if _, err := os.Stat(js); err != nil {
		t.Skip("@playwright/mcp is not installed: run `make mcp-servers` (make test does)")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	if _, err := os.Stat(Chromium); err != nil {
		t.Skipf("%s is not installed: run `make deps`", Chromium)
	}
	return js
}

// BrowserArgs are the browser server's arguments for a test: headless
// Chromium with an in-memory profile, its snapshots and files kept in out.
// Playwright starts Chromium without its own sandbox unless asked
// (--sandbox), which is also what lets it run as root.
func BrowserArgs(js, out string) []string {
	return []string{js, "--browser", "chromium", "--executable-path", Chromium, "--headless", "--isolated", "--output-dir", out}
}

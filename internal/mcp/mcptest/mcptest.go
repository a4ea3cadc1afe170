// Package mcptest finds the npm MCP servers the tests run (installed by
// `make mcp-servers` from internal/mcp/testdata/servers' lockfile).
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

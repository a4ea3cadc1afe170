# MCP servers the Go integration tests (internal/mcp) and the e2e tests run:
# installed from their own lockfile, like the frontend's packages.
MCP_SERVERS := internal/mcp/testdata/servers

.PHONY: mcp-servers
mcp-servers: $(MCP_SERVERS)/node_modules/.package-lock.json

$(MCP_SERVERS)/node_modules/.package-lock.json: $(MCP_SERVERS)/package.json $(MCP_SERVERS)/package-lock.json
	@command -v npm >/dev/null || { echo "Node.js 20 and npm are required"; exit 1; }
	cd $(MCP_SERVERS) && npm ci --no-audit --no-fund
	@touch $@

test-go: mcp-servers
e2e: mcp-servers

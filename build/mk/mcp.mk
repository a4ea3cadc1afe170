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

# bench-startup also times the app with three stdio MCP servers configured
# (server-everything), as a ratio to none: they start after the first frame.
EVERYTHING_JS := $(abspath $(MCP_SERVERS))/node_modules/@modelcontextprotocol/server-everything/dist/index.js
bench-startup: mcp-servers
bench-startup: STARTBENCH_FLAGS += -mcp-server "node $(EVERYTHING_JS) stdio"

# 100 echo calls through a session's router (output cap, recorder, gate in
# auto, events; no model) against the same calls from a bare go-sdk client
# session, in one run. Target: <= 1.2x.
.PHONY: bench-mcp
bench-mcp: mcp-servers
	$(GO) run ./internal/mcp/mcpbench -server "node $(EVERYTHING_JS) stdio"

BENCH_TARGETS += bench-mcp

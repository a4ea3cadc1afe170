# Language servers the Go tests of internal/lsp run, at pinned versions:
# gopls built once into a cached folder (a second make test does not
# rebuild it), typescript-language-server with TypeScript 6 (TypeScript 7
# ships no tsserver.js) and pyright from their own lockfile.
LSP_SERVERS := testdata/lsp
GOPLS_VERSION := v0.23.0
GOPLS := $(OUT)/lsp/bin/gopls

.PHONY: lsp-servers
lsp-servers: $(GOPLS) $(LSP_SERVERS)/node_modules/.package-lock.json

$(OUT)/lsp/gopls-$(GOPLS_VERSION).stamp:
	@mkdir -p $(OUT)/lsp/bin
	GOBIN=$(abspath $(OUT))/lsp/bin $(GO) install golang.org/x/tools/gopls@$(GOPLS_VERSION)
	@touch $@

$(GOPLS): $(OUT)/lsp/gopls-$(GOPLS_VERSION).stamp

$(LSP_SERVERS)/node_modules/.package-lock.json: $(LSP_SERVERS)/package.json $(LSP_SERVERS)/package-lock.json
	@command -v npm >/dev/null || { echo "Node.js 20 and npm are required"; exit 1; }
	cd $(LSP_SERVERS) && npm ci --no-audit --no-fund
	@touch $@

test-go: lsp-servers
e2e: lsp-servers

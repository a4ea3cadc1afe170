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

# The confinement tests of language servers again as an unprivileged user,
# as test-sandbox-nobody runs the sandbox's. Skipped where setpriv is missing.
NOBODY_LSP_TESTS := TestAServerInAnUntrustedFolderIsConfined|TestNoServerOutlivesAKilledApp

.PHONY: test-lsp-nobody
test-lsp-nobody: supervisor-test
	@command -v setpriv >/dev/null || { echo "test-lsp-nobody: no setpriv, skipped"; exit 0; }
	@set -e; dir=$$(mktemp -d /tmp/gatehouse-nobody-XXXXXX); trap 'rm -rf "$$dir"' EXIT; \
	$(GO) test -c -o $$dir/lsp.test ./internal/lsp; \
	cp $(SUPERVISOR_OUT) $$dir/; mkdir -p $$dir/home $$dir/tmp; \
	chmod 755 $$dir; chown -R 65534:65534 $$dir/home $$dir/tmp; \
	echo "lsp.test as nobody:"; \
	if (cd $$dir && setpriv --reuid=65534 --regid=65534 --clear-groups env -i PATH=/usr/local/bin:/usr/bin:/bin \
		HOME=$$dir/home TMPDIR=$$dir/tmp GATEHOUSE_TEST_SUPERVISOR=$$dir/gatehouse-supervisor \
		./lsp.test -test.run '$(NOBODY_LSP_TESTS)' -test.v >$$dir/log 2>&1); then grep -E '^(---|ok|PASS)' $$dir/log; \
	else cat $$dir/log; echo "test-lsp-nobody: FAILED"; exit 1; fi

TEST_TARGETS += test-lsp-nobody

# A one-line change's diagnostics in a warm gopls through Gatehouse's
# check against a bare LSP client's didChange and publish, in one run.
# Target: <= 1.5x.
.PHONY: bench-diagnostics
bench-diagnostics: $(GOPLS)
	$(GO) run ./internal/lsp/lspbench -gopls $(abspath $(GOPLS))

BENCH_TARGETS += bench-diagnostics

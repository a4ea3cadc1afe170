# End-to-end test of `gatehouse acp` (issue 17): the real binary spawned from
# Node, driven over stdio by the ACP TypeScript SDK (pinned in
# internal/acp/testdata/client) against the scripted fake model.

ACP_CLIENT := internal/acp/testdata/client

.PHONY: test-acp
test-acp: fakellm $(ACP_CLIENT)/node_modules/.package-lock.json
	$(GO) build -tags $(TAGS) -o $(OUT)/gatehouse .
	cd $(ACP_CLIENT) && GATEHOUSE_BIN=$(abspath $(OUT))/gatehouse FAKELLM_BIN=$(abspath $(OUT))/fakellm \
		node --test e2e.test.mjs

$(ACP_CLIENT)/node_modules/.package-lock.json: $(ACP_CLIENT)/package.json $(ACP_CLIENT)/package-lock.json
	@command -v npm >/dev/null || { echo "Node.js 20 and npm are required"; exit 1; }
	cd $(ACP_CLIENT) && npm ci --no-audit --no-fund
	@touch $@

TEST_TARGETS += test-acp

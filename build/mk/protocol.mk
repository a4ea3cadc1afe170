# The TypeScript types of the backend (internal/protocol and what the bound
# services take and return) and the bound methods' typed calls.
# The test in internal/protocol/tsgen fails when the checked-in file is stale.

.PHONY: protocol-ts
protocol-ts:
	$(GO) run ./internal/protocol/cmd/tsgen -o frontend/src/bridge/protocol.gen.ts -bound frontend/src/bridge/bound.gen.ts

# TypeScript types of the backend events, generated from internal/protocol.
# The test in internal/protocol/tsgen fails when the checked-in file is stale.

.PHONY: protocol-ts
protocol-ts:
	$(GO) run ./internal/protocol/cmd/tsgen -o frontend/src/bridge/protocol.gen.ts

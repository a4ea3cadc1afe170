# What a subagent costs (issue 16): a delegate call whose child makes one
# tool call and answers (two model requests) beside the parent making the
# same two requests itself, zero-latency fake model, in one run. Bound: 1.2×.
# DELEGATE_BENCH_FLAGS: e.g. -runs 41.
DELEGATE_BENCH_FLAGS ?=

.PHONY: bench-delegate
bench-delegate:
	$(GO) run ./internal/agents/delegatebench $(DELEGATE_BENCH_FLAGS)

BENCH_TARGETS += bench-delegate

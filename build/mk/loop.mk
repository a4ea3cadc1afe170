# The turn loop's own overhead (issue 6): 100 small read_file calls against a
# zero-latency fake model, loop time minus tool time, beside bare openai-go
# streaming the same script in the same run. Target: <= 300 ms over 100 calls.
# Then five matching no-op hooks against none on the same calls (issue 40):
# what they add per call, and the ratio. Target: <= 15 ms per call.
# LOOP_BENCH_FLAGS: e.g. -runs 9, -calls 200.
LOOP_BENCH_FLAGS ?=

.PHONY: bench-loop
bench-loop:
	$(GO) run ./internal/agent/loopbench $(LOOP_BENCH_FLAGS)

BENCH_TARGETS += bench-loop

# Benchmark of the grep tool (issue 44): `gatehouse tool grep` against
# ripgrep (`rg -n`, Debian's ripgrep) on the Go distribution's src folder,
# literal and regex, warm cache, median of GREP_BENCH_RUNS, as ratios.
# The headless commands need no window, so a plain build serves.
GREP_BENCH_RUNS ?= 5
GREP_BENCH_DIR  ?= $(shell $(GO) env GOROOT)/src
GREP_BENCH_BIN  := build/bench/gatehouse-headless

.PHONY: bench-grep
bench-grep:
	@command -v rg >/dev/null || { echo "rg is missing: make deps-apt installs ripgrep"; exit 1; }
	$(GO) build -o $(GREP_BENCH_BIN) .
	$(GO) run ./internal/tools/files/grepbench -gatehouse $(GREP_BENCH_BIN) -dir $(GREP_BENCH_DIR) -runs $(GREP_BENCH_RUNS)

BENCH_TARGETS += bench-grep

# Benchmarks of internal/proc: output ingestion rate of the process registry
# against cat >/dev/null on a pty, and peak RSS growth during a 1 GiB flood.
# PROC_BENCH_FLAGS: e.g. -runs 3 (best of 3), -bytes 268435456.
PROC_BENCH_FLAGS ?=

.PHONY: bench-proc
bench-proc:
	$(GO) run ./internal/proc/procbench $(PROC_BENCH_FLAGS)

BENCH_TARGETS += bench-proc

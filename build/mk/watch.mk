# Benchmark of internal/watch: a 5,000-file burst made by another process
# (cp -r as a checkout, then a rewrite, then rm -rf): fs.changed events the UI
# receives and the watching process's CPU time. WATCH_BENCH_FLAGS: e.g.
# -files 20000 -dirs 200.
WATCH_BENCH_FLAGS ?=

.PHONY: bench-watch
bench-watch:
	$(GO) run ./internal/watch/watchbench $(WATCH_BENCH_FLAGS)

BENCH_TARGETS += bench-watch

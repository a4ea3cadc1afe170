# The network (issue 29): web_fetch converting a 1 MB HTML page against
# parsing the same page alone, as a ratio (target <= 2x, issue 44: an
# absolute time does not hold on a shared machine; wall and CPU, the CPU
# ratio steadier on a busy machine), and a confined curl of a
# local server through the filtering proxy against the same curl straight
# to it (target <= 1.5x), with every layer and Landlock alone; with every
# layer, a dev server's first response (a new connection) through the
# forward out of the session's network namespace against the same server
# in this machine's network (target <= 1.2x).
.PHONY: bench-network
bench-network: supervisor-test
	$(GO) test -run '^$$' -bench 'OneMegabyteHTML' -benchtime 20x ./internal/tools/web/ | awk '\
		/^BenchmarkConvert/ { c = $$3; cc = $$7; print } /^BenchmarkParse/ { p = $$3; pc = $$7; print } \
		END { if (c && p) printf "1 MB page converted: %.2fx parsing it alone (CPU %.2fx; target <= 2x); %.1f ms wall, %.1f ms CPU\n", c / p, cc / pc, c / 1e6, cc }'
	$(GO) run ./internal/netproxy/proxybench -supervisor $(abspath $(SUPERVISOR_OUT))
	$(GO) run ./internal/netproxy/proxybench -supervisor $(abspath $(SUPERVISOR_OUT)) -landlock-only

BENCH_TARGETS += bench-network

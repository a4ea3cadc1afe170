# The network (issue 29): web_fetch converting a 1 MB HTML page (target
# <= 100 ms; wall and CPU time, the CPU time steadier on a busy machine),
# printed beside parsing the same page alone, and a confined curl of a
# local server through the filtering proxy against the same curl straight
# to it (target <= 1.5x), with every layer and Landlock alone; with every
# layer, a dev server's first response (a new connection) through the
# forward out of the session's network namespace against the same server
# in this machine's network (target <= 1.2x).
.PHONY: bench-network
bench-network: supervisor-test
	$(GO) test -run '^$$' -bench 'OneMegabyteHTML' -benchtime 20x ./internal/tools/web/ | awk '\
		/^BenchmarkConvert/ { c = $$3; cc = $$7; print } /^BenchmarkParse/ { p = $$3; pc = $$7; print } \
		END { if (c && p) printf "1 MB page converted: %.1f ms wall, %.1f ms CPU (target <= 100 ms); %.2fx parsing it alone (CPU %.2fx)\n", c / 1e6, cc, c / p, cc / pc }'
	$(GO) run ./internal/netproxy/proxybench -supervisor $(abspath $(SUPERVISOR_OUT))
	$(GO) run ./internal/netproxy/proxybench -supervisor $(abspath $(SUPERVISOR_OUT)) -landlock-only

BENCH_TARGETS += bench-network

# The approval dialog's render time (issue 7): a 5,000-line diff opened in
# the dialog beside the same text set into a plain <pre>, in the same page
# and run, in the system's Chromium through Playwright. Target: <= 300 ms
# and within 5x the plain render. BENCH_RUNS: samples per kind (default 15).

.PHONY: bench-dialog
bench-dialog: deps-npm
	cd frontend && npx vite build --logLevel warn -c bench/vite.config.ts
	cd frontend && node bench/run.mjs

BENCH_TARGETS += bench-dialog

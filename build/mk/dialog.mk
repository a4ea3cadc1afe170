# The approval dialog's render time (issue 7): a 5,000-line diff opened in
# the dialog beside the same text set into a plain <pre>, in the same page
# and run, in the system's Chromium through Playwright. Target: <= 300 ms
# and within 5x the plain render. BENCH_RUNS: samples per kind (default 15).

#
# Then, against the real backend (issue 43): the dialog's first frame with
# gopls running, checking the proposal as the dialog opens, against the
# same with no language server, in one run (e2e/dialog.bench.ts, through
# the e2e harness). Target: <= 1.2x. Printed, never asserted.

.PHONY: bench-dialog
bench-dialog: deps-npm lsp-servers supervisor-test
	cd frontend && npx vite build --logLevel warn -c bench/vite.config.ts
	cd frontend && node bench/run.mjs
	cd frontend && npm run build
	$(GO) build -tags dev,$(TAGS) -o $(OUT)/gatehouse-dev .
	$(MAKE) fakellm
	cd frontend && npx playwright test -c e2e/bench.config.ts --reporter=line dialog.bench.ts

BENCH_TARGETS += bench-dialog

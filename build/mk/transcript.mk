# A long session in the window (issue 44). longlog writes a saved session of
# many tool calls with the app's own session log writer, for the bench and
# the end-to-end tests (e2e/longSession.ts).
#
# bench-transcript: a 1,000-call session (cards with diffs and outputs)
# resumed from the Sessions menu against the real backend, in Chromium
# (e2e/transcript.bench.ts). First frame against the same content as one
# plain static page: target <= 2x. Scrolling "without jank": the window's
# 99th percentile frame within one 60 Hz frame (16.7 ms). Beside it, in
# the same run: the window's own rows all in the DOM with no windowing
# (what windowing buys), and the plain page, bare and in a scroll
# container (what the app's styles and layout cost apart from windowing).
# Printed, never asserted. BENCH_RUNS: resumes and page loads each
# (default 5); BENCH_CALLS: tool calls (default 1000);
# BENCH_TIMEOUT: ms (600000).

.PHONY: longlog bench-transcript
longlog:
	$(GO) build -o $(OUT)/longlog ./internal/session/cmd/longlog

bench-transcript: deps-npm $(ABOUT_JSON)
	cd frontend && npm run build
	$(GO) build -tags dev,$(TAGS) -o $(OUT)/gatehouse-dev .
	$(MAKE) fakellm longlog
	cd frontend && npx playwright test -c e2e/bench.config.ts --reporter=line transcript.bench.ts

BENCH_TARGETS += bench-transcript

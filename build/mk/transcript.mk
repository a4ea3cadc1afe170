# A long session in the window (issue 44). longlog writes a saved session of
# many tool calls with the app's own session log writer, for the bench and
# the end-to-end tests (e2e/longSession.ts).
#
# bench-transcript: a 1,000-call session (cards with diffs and outputs)
# resumed from the Sessions menu against the real backend, in Chromium,
# beside the same content as one plain static page in the same run: the
# time to the first frame showing the transcript, and frame times while
# scrolling through it (e2e/transcript.bench.ts). Targets: first frame
# <= 2x, scroll frame <= 1.5x. A third line scrolls the same static page
# inside a scroll container, as the window's transcript is: what that
# layout alone costs a frame, apart from the windowed rows. Printed, never
# asserted. BENCH_RUNS: resumes and page loads each (default 5);
# BENCH_CALLS: tool calls (default 1000); BENCH_TIMEOUT: ms (600000).

.PHONY: longlog bench-transcript
longlog:
	$(GO) build -o $(OUT)/longlog ./internal/session/cmd/longlog

bench-transcript: deps-npm $(ABOUT_JSON)
	cd frontend && npm run build
	$(GO) build -tags dev,$(TAGS) -o $(OUT)/gatehouse-dev .
	$(MAKE) fakellm longlog
	cd frontend && npx playwright test -c e2e/bench.config.ts --reporter=line transcript.bench.ts

BENCH_TARGETS += bench-transcript

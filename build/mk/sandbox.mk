# The supervisor helper (issue 21): a static binary beside the app, run
# before every command. bench-sandbox times `bash exec true` through it,
# confined, against the same without it, in one run (target: <= 1.5x).
SUPERVISOR     := build/bin/gatehouse-supervisor
SUPERVISOR_OUT := $(OUT)/gatehouse-supervisor

.PHONY: supervisor supervisor-test bench-sandbox

supervisor:
	CGO_ENABLED=0 $(GO) build -trimpath -o $(SUPERVISOR) ./internal/supervisor/cmd/gatehouse-supervisor

supervisor-test:
	CGO_ENABLED=0 $(GO) build -o $(SUPERVISOR_OUT) ./internal/supervisor/cmd/gatehouse-supervisor

bench-sandbox: supervisor-test
	$(GO) run ./internal/sandbox/sandboxbench -supervisor $(abspath $(SUPERVISOR_OUT))

BENCH_TARGETS += bench-sandbox

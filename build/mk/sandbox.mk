# The supervisor helper (issue 21): a static binary beside the app, run
# before every command (the app finds it next to its own executable). The
# app build, the e2e build and the Go tests get their copy; tests find theirs
# through GATEHOUSE_TEST_SUPERVISOR (else they build one). bench-sandbox
# times `bash exec true` through it, confined, against the same without it,
# in one run (target: <= 1.5x).
SUPERVISOR     := build/bin/gatehouse-supervisor
SUPERVISOR_OUT := $(OUT)/gatehouse-supervisor
SUPERVISOR_PKG := ./internal/supervisor/cmd/gatehouse-supervisor
# The helper's sources (it links only internal/supervisor and internal/sandbox).
SUPERVISOR_SOURCES = $(wildcard $(shell git ls-files --cached --others --exclude-standard -- \
	internal/supervisor internal/sandbox go.mod go.sum ':!:*_test.go' 2>/dev/null))

.PHONY: supervisor supervisor-test bench-sandbox

supervisor: $(SUPERVISOR)

$(SUPERVISOR): $(SUPERVISOR_SOURCES) | deps-go
	CGO_ENABLED=0 $(GO) build -trimpath -o $@ $(SUPERVISOR_PKG)

supervisor-test:
	CGO_ENABLED=0 $(GO) build -o $(SUPERVISOR_OUT) $(SUPERVISOR_PKG)

# The helper goes beside each binary that runs commands, the packaged
# one included (/usr/lib/gatehouse).
build run: $(SUPERVISOR)
PKG_BINARIES += $(SUPERVISOR)
e2e: supervisor-test
test-go: supervisor-test
test-go: export GATEHOUSE_TEST_SUPERVISOR := $(abspath $(SUPERVISOR_OUT))

bench-sandbox: supervisor-test
	$(GO) run ./internal/sandbox/sandboxbench -supervisor $(abspath $(SUPERVISOR_OUT))

BENCH_TARGETS += bench-sandbox

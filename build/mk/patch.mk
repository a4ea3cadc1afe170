# apply_patch benchmarks and fuzzing (issue 4).
#
# bench-patch installs Codex's Rust build (the @openai/codex linux-x64
# package, pinned) into build/bench/codex, then times Gatehouse's headless
# apply_patch against it on the same generated inputs, in one run.

CODEX_VERSION ?= 0.171.0
CODEX_DIR     := build/bench/codex
CODEX_BIN     := $(CODEX_DIR)/node_modules/@openai/codex/vendor/x86_64-unknown-linux-musl/bin/codex
PATCHBENCH    := build/bench/patchbench
# Fuzzing runs a number of inputs, not a duration: a -fuzztime duration that
# ends while the engine minimises a new input fails the run with "context
# deadline exceeded" although nothing was found. About 10 s each here.
FUZZ_PARSE    ?= 300000x
FUZZ_RESOLVE  ?= 15000x
# Trees go on a tmpfs when there is one: see -scratch in patchbench.
PATCH_SCRATCH ?= $(shell test -d /dev/shm && test -w /dev/shm && echo /dev/shm)

.PHONY: bench-patch fuzz-patch codex-bin

$(CODEX_BIN):
	mkdir -p $(CODEX_DIR)
	test -f $(CODEX_DIR)/package.json || echo '{"private":true}' > $(CODEX_DIR)/package.json
	cd $(CODEX_DIR) && npm install --no-save --no-audit --no-fund @openai/codex@$(CODEX_VERSION)-linux-x64
	test -x $@

codex-bin: $(CODEX_BIN)

bench-patch: $(CODEX_BIN)
	$(GO) test -run '^$$' -bench 'Apply' -benchtime 10x ./internal/patch
	$(GO) build -o $(PATCHBENCH) ./internal/patch/patchbench
	$(PATCHBENCH) -codex $(CODEX_BIN) -runs 21 $(if $(PATCH_SCRATCH),-scratch $(PATCH_SCRATCH))

fuzz-patch:
	$(GO) test -run '^$$' -fuzz=FuzzParse -fuzztime=$(FUZZ_PARSE) ./internal/patch
	$(GO) test -run '^$$' -fuzz=FuzzResolve -fuzztime=$(FUZZ_RESOLVE) ./internal/workspace

BENCH_TARGETS += bench-patch
TEST_TARGETS += fuzz-patch

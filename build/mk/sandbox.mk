# The supervisor helper (issue 21): a static binary beside the app, run
# before every command (the app finds it next to its own executable). The
# app build, the e2e build and the Go tests get their copy; tests find theirs
# through GATEHOUSE_TEST_SUPERVISOR (else they build one). bench-sandbox
# times `bash exec true` through it, confined, against the same without it,
# in one run (targets: <= 2.5x back to back, <= 1.3x after a pause).
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

# The sandbox tests again as an unprivileged user (CI runs as root, users
# do not): the test binaries and the helper are copied to a folder nobody
# can read, and run through setpriv as nobody, with a home and temp folder
# of its own. Skipped where setpriv is missing.
NOBODY_TESTS := TestAllowList|TestSkillScripts|TestPolicyDenies|TestConfinedCommands|TestGitCodePaths|TestKeyring|TestDevices|TestHooksPath|TestCommandsJoin|TestCommandsRunConfined|TestLinkedWorktree|TestReplacedPaths|TestConfinedWrites|TestUnix|TestAllowed|TestOutside|TestSecrets|TestNetworkOff|TestGit|TestWritable|TestEveryday
NOBODY_PROC_TESTS := TestConfined
NOBODY_HOOKS_TESTS := TestWorkspaceHook

.PHONY: test-sandbox-nobody
test-sandbox-nobody: supervisor-test
	@command -v setpriv >/dev/null || { echo "test-sandbox-nobody: no setpriv, skipped"; exit 0; }
	@set -e; dir=$$(mktemp -d /tmp/gatehouse-nobody-XXXXXX); trap 'rm -rf "$$dir"' EXIT; \
	$(GO) test -c -o $$dir/sandbox.test ./internal/sandbox; \
	$(GO) test -c -o $$dir/proc.test ./internal/proc; \
	$(GO) test -c -o $$dir/hooks.test ./internal/hooks; \
	$(GO) build -o $$dir/crashhost ./internal/proc/crashhost; \
	cp $(SUPERVISOR_OUT) $$dir/; mkdir -p $$dir/home $$dir/tmp; \
	chmod 755 $$dir; chown -R 65534:65534 $$dir/home $$dir/tmp; \
	run() { (cd $$dir && setpriv --reuid=65534 --regid=65534 --clear-groups env -i PATH=/usr/local/bin:/usr/bin:/bin:$$(dirname $$(command -v $(GO))) \
		HOME=$$dir/home TMPDIR=$$dir/tmp GOTOOLCHAIN=local GATEHOUSE_TEST_SUPERVISOR=$$dir/gatehouse-supervisor \
		GATEHOUSE_TEST_CRASHHOST=$$dir/crashhost "$$@"); }; \
	for t in "sandbox.test:$(NOBODY_TESTS)" "proc.test:$(NOBODY_PROC_TESTS)" "hooks.test:$(NOBODY_HOOKS_TESTS)"; do \
		echo "$${t%%:*} as nobody:"; \
		if run ./$${t%%:*} -test.run "$${t#*:}" -test.v >$$dir/log 2>&1; then grep -E '^(---|ok|PASS)' $$dir/log; \
		else cat $$dir/log; echo "test-sandbox-nobody: FAILED"; exit 1; fi; \
	done

TEST_TARGETS += test-sandbox-nobody

# The sandbox again with namespaces forced off ($GATEHOUSE_SANDBOX_LAYERS=
# landlock, which sandbox.Detect honours): where user namespaces are
# refused (a chroot, many containers, distributions that restrict them)
# commands run under Landlock alone, and make test must pass there too.
# Runs the sandbox and proc Go tests and the e2e sandbox spec (against the
# app make e2e built) that way.
.PHONY: test-landlock-only
test-landlock-only: supervisor-test
	GATEHOUSE_SANDBOX_LAYERS=landlock GATEHOUSE_TEST_SUPERVISOR=$(abspath $(SUPERVISOR_OUT)) \
		$(GO) test -count=1 ./internal/sandbox/... ./internal/proc/...
	cd frontend && GATEHOUSE_SANDBOX_LAYERS=landlock npx playwright test -c e2e/playwright.config.ts sandbox.spec.ts

TEST_TARGETS += test-landlock-only

# Installable like any desktop app (issue 22).
#
# make package       build/out/package: gatehouse_VERSION_ARCH.deb and a
#                    .tar.gz of the same files (build/package/package.sh)
# make test-package  installs the .deb on a fresh Debian 12 root (debootstrap,
#                    cached in the user's cache folder) and runs the desktop
#                    smoke test against the installed app
#                    (build/package/install-test.sh; needs root)
# make test-make-run after a build, `make -n run` runs no `wails build`
#
# PKG_BINARIES: every file installed to /usr/lib/gatehouse; a helper binary
# the app runs is one line in its own fragment (with a rule that builds it):
#   PKG_BINARIES += build/bin/gatehouse-helper
PKG_BINARIES := $(BIN)
PKG_DIR      := $(OUT)/package

.PHONY: package test-package test-make-run

# Second expansion: fragments read after this one can still add binaries.
.SECONDEXPANSION:
package: $$(PKG_BINARIES) | deps-apt
	@if [ "$$(./$(BIN) version)" != "gatehouse $(VERSION)" ]; then \
		echo "The binary is not version $(VERSION): rebuilding it."; \
		rm -f $(BIN) && $(MAKE) --no-print-directory $(BIN); fi
	build/package/package.sh $(PKG_DIR) $(VERSION) $(PKG_BINARIES)

test-package: package
	GATEHOUSE_SMOKE_SHOT=$(abspath $(OUT))/package-smoke.png build/package/install-test.sh $(PKG_DIR)

test-make-run: build
	build/package/make-run-test.sh

TEST_TARGETS += test-make-run test-package

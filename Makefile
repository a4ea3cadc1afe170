# Gatehouse — two commands (and make package):
#   make run    install what is missing, build the desktop app, launch it
#   make test   install what is missing, run every test
SHELL := /bin/bash
.DEFAULT_GOAL := help

GO      ?= go
WAILS   := $(GO) tool wails
TAGS    := webkit2_41
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
BIN     := build/bin/gatehouse
OUT     := build/out

# Debian/Ubuntu packages: the C toolchain and GTK/WebKit for the window, Xvfb and
# X tools for the desktop tests (xclip reads the clipboard back; python3-gi with GTK 3's
# introspection data is the drag source a file is dropped from), Chromium for the browser tests;
# bubblewrap for the sandbox's namespaces, curl and python3 for the sandbox tests' commands; ripgrep
# is what bench-grep measures the grep tool against.
APT_PACKAGES := build-essential pkg-config libgtk-3-dev libwebkit2gtk-4.1-dev \
	xvfb xauth x11-utils xdotool xclip imagemagick python3-gi gir1.2-gtk-3.0 chromium debootstrap \
	bubblewrap curl python3 ripgrep

# Fragments under build/mk add their own targets to these lists.
TEST_TARGETS  :=
BENCH_TARGETS :=
-include $(wildcard build/mk/*.mk)

.PHONY: help run build deps about deps-apt deps-npm deps-go test test-go test-frontend smoke e2e bench clean

help:
	@echo "make run    build and launch Gatehouse (installs what is missing)"
	@echo "make test   run every test (installs what is missing)"
	@echo "make bench  print benchmark ratios"
	@echo "make package  build the .deb and a .tar.gz in build/out/package"

## ---- setup -----------------------------------------------------------------

deps: deps-apt deps-go deps-npm

deps-apt:
	@command -v dpkg-query >/dev/null || { echo "Not a Debian/Ubuntu system: install $(APT_PACKAGES) by hand."; exit 1; }
	@missing=$$(for p in $(APT_PACKAGES); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed$$' || echo $$p; done | xargs); \
	if [ -z "$$missing" ]; then exit 0; fi; \
	line="apt-get install -y --no-install-recommends $$missing"; \
	echo "Installing missing packages: $$missing"; \
	if [ "$$(id -u)" = 0 ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$line; \
	elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then \
		sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive $$line; \
	else \
		echo; echo "Please install them, then run make again:"; \
		echo "  sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive $$line"; exit 1; \
	fi

# Done again only when go.mod or go.sum changed (make run stays quick).
deps-go: $(OUT)/.deps-go

$(OUT)/.deps-go: go.mod go.sum
	@command -v $(GO) >/dev/null || { echo "Go 1.26 is required: https://go.dev/dl/"; exit 1; }
	@$(GO) mod download
	@$(GO) build -o /dev/null github.com/wailsapp/wails/v2/cmd/wails
	@mkdir -p $(OUT) && touch $@

deps-npm: frontend/node_modules/.package-lock.json

frontend/node_modules/.package-lock.json: frontend/package.json frontend/package-lock.json
	@command -v npm >/dev/null || { echo "Node.js 20 and npm are required"; exit 1; }
	cd frontend && npm ci --no-audit --no-fund
	@touch $@

## ---- build and run ---------------------------------------------------------

# The binary is rebuilt only when a source it is made from changed since
# the last build (Go and frontend files git knows of or would add, the
# generated licence list), so a second `make run` launches at once. Test
# files are not sources of the binary; nor is the version alone (a commit
# or a README edit does not rebuild; make package checks the version), nor
# the Wails bindings, which the build writes from the Go code.
APP_SOURCES = $(wildcard $(shell git ls-files --cached --others --exclude-standard -- \
	'*.go' go.mod go.sum wails.json build/appicon.png build/windowicon.png 'frontend/*' \
	':!:*_test.go' ':!:frontend/e2e' ':!:frontend/bench' ':!:frontend/dist' ':!:frontend/src/bridge/wailsjs' \
	':!:*.test.ts' ':!:*.test.tsx' ':!:frontend/src/test' 2>/dev/null))

# The About box's list of what the app bundles, with licences (issue 22):
# generated into the frontend's public folder, served with the page.
ABOUT_JSON := frontend/public/licenses.json

# (node_modules only order-only: the Wails build may run npm ci again,
# which installs what package-lock.json, a source, says.)
$(ABOUT_JSON): $(APP_SOURCES) | frontend/node_modules/.package-lock.json
	$(GO) run ./internal/about/cmd/licensegen -tags $(TAGS) -version $(VERSION) -frontend frontend -o $@

$(BIN): $(APP_SOURCES) $(ABOUT_JSON) frontend/node_modules/.package-lock.json | deps-apt deps-go
	$(WAILS) build -tags $(TAGS) -m -nosyncgomod -ldflags "-X main.version=$(VERSION)"
	@touch $@

build: deps $(BIN)

run: deps $(BIN)
	./$(BIN)

## ---- tests -----------------------------------------------------------------

test: deps
	$(MAKE) test-go
	$(MAKE) test-frontend
	$(MAKE) smoke
	$(MAKE) e2e
	@for t in $(TEST_TARGETS); do $(MAKE) $$t || exit 1; done
	@echo "make test: all passed"

# The whole module vets clean on Windows and macOS too: platform code sits
# in files named for the platform (_unix.go, _linux.go, _windows.go, _other.go)
# or behind build tags, so a Linux-only call elsewhere fails here.
test-go:
	$(GO) vet ./...
	GOOS=windows $(GO) vet ./...
	GOOS=darwin $(GO) vet ./...
	$(GO) test -race -count=1 ./...

test-frontend: deps-npm
	cd frontend && npm run typecheck && npm test

# The production binary in a real window under Xvfb: waits for the window and
# for Ready(), keeps a screenshot in build/out/smoke.png.
smoke: build
	@mkdir -p $(OUT)
	GATEHOUSE_BIN=$(abspath $(BIN)) GATEHOUSE_SMOKE_SHOT=$(abspath $(OUT))/smoke.png \
		$(GO) test -tags desktop -count=1 -v ./internal/desktop/smoke/

# Browser end-to-end tests: the real backend (dev-tagged build under Xvfb)
# serving the built frontend, driven by Playwright in Debian's Chromium.
e2e: deps $(ABOUT_JSON)
	cd frontend && npm run build
	$(GO) build -tags dev,$(TAGS) -o $(OUT)/gatehouse-dev .
	$(MAKE) fakellm longlog
	cd frontend && npx playwright test -c e2e/playwright.config.ts

bench: deps
	@for t in $(BENCH_TARGETS); do $(MAKE) --no-print-directory $$t || exit 1; done

about: $(ABOUT_JSON)

clean:
	rm -rf build/bin $(OUT) frontend/dist/assets frontend/dist/index.html $(ABOUT_JSON) internal/export/bundle/export.*

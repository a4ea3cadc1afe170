# Start-up time and idle memory of the production app against a bare Wails
# app (wails init -t vanilla-ts, built the same way), measured in one run.
BARE_DIR := build/bench/bare

.PHONY: bench-startup bare-app

$(BARE_DIR)/build/bin/bare:
	rm -rf $(BARE_DIR) && mkdir -p build/bench
	cd build/bench && $$($(GO) tool -n wails) init -n bare -t vanilla-ts -d bare
	# Its page reports its first frame like Gatehouse's page calls Ready.
	printf '\nrequestAnimationFrame(() => requestAnimationFrame(() => { Greet("ready"); }));\n' >> $(BARE_DIR)/frontend/src/main.ts
	sed -i 's|^func (a \*App) Greet(name string) string {|func (a *App) Greet(name string) string {\n\tif name == "ready" {\n\t\tprintln("msg=ready")\n\t}|' $(BARE_DIR)/app.go
	cd $(BARE_DIR) && $$(cd $(CURDIR) && $(GO) tool -n wails) build -tags $(TAGS)

bare-app: $(BARE_DIR)/build/bin/bare

bench-startup: build bare-app
	$(GO) run ./internal/desktop/startbench -gatehouse $(BIN) -bare $(BARE_DIR)/build/bin/bare $(STARTBENCH_FLAGS)

BENCH_TARGETS += bench-startup

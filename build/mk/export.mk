# The HTML export's renderer (issue 47): the window's transcript components
# and CSS, built by Vite (frontend/vite.export.config.ts) into one script and
# one style sheet in internal/export/bundle, which the Go build embeds and
# every HTML export inlines. Built before the Go tests; the app's build
# (npm run build, which Wails and make e2e run) builds it too. A Go build
# without it exports HTML with an error saying to run make export-renderer.

EXPORT_RENDERER := internal/export/bundle/export.js
EXPORT_SOURCES = $(wildcard $(shell git ls-files --cached --others --exclude-standard -- \
	'frontend/src/*' frontend/vite.config.ts frontend/vite.export.config.ts frontend/package.json frontend/package-lock.json \
	':!:*.test.ts' ':!:*.test.tsx' ':!:frontend/src/test' ':!:frontend/src/bridge/wailsjs' 2>/dev/null))

.PHONY: export-renderer
export-renderer: $(EXPORT_RENDERER)

$(EXPORT_RENDERER): $(EXPORT_SOURCES) | frontend/node_modules/.package-lock.json
	cd frontend && npm run build:export
	@touch $@

test-go: $(EXPORT_RENDERER)

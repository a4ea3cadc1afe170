#!/usr/bin/env bash
# After a build, a second `make run` runs no `wails build`; a changed Go or
# frontend source makes it rebuild; a changed test file does not (issue 22).
# Checked with make's dry run (-n), and -W to pretend a file changed
# without touching it. Run it after `make build` (make test-make-run does).
set -euo pipefail
cd "$(dirname "$0")/../.."
fail=0
dry() { make --no-print-directory -n run "$@" 2>&1; }
rebuilds() { grep -q 'wails build' <<<"$(dry "$@")"; }

if rebuilds; then
	echo "FAIL: with nothing changed, make run would rebuild:"
	dry | sed 's/^/    /'
	fail=1
fi
for f in main.go app.go internal/agent/loop.go frontend/src/App.tsx frontend/src/styles.css frontend/index.html frontend/package.json go.mod; do
	[ -e "$f" ] || { echo "FAIL: $f is gone: update this test's list"; fail=1; continue; }
	rebuilds -W "$f" || { echo "FAIL: after $f changed, make run would not rebuild"; fail=1; }
done
for f in main_exec_test.go frontend/src/App.test.tsx README.md; do
	[ -e "$f" ] || { echo "FAIL: $f is gone: update this test's list"; fail=1; continue; }
	if rebuilds -W "$f"; then echo "FAIL: after $f (not a source of the app) changed, make run would rebuild"; fail=1; fi
done
[ $fail = 0 ] && echo "make-run-test: a second make run rebuilds only for a changed source"
exit $fail

// Package smoke holds the desktop smoke test: the production binary in a real
// window under Xvfb. It runs only with the build tag "desktop" and the
// environment variable GATEHOUSE_BIN (see the Makefile's smoke target), because
// it needs GTK, WebKit and Xvfb, which plain `go test ./...` must not.
package smoke

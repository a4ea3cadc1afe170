//go:build linux && cgo

package fontstack

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The stacks the page asks about (frontend/src/fonts.ts).
var (
	sans = []string{"system-ui", "-apple-system", "Segoe UI", "Cantarell", "Noto Sans", "DejaVu Sans", "sans-serif"}
	mono = []string{"ui-monospace", "SFMono-Regular", "JetBrains Mono", "DejaVu Sans Mono", "Liberation Mono", "monospace"}
)

// withFonts is a resolver over a fontconfig configuration of its own: the
// given font files and rules (fontconfig XML), nothing of the machine's.
func withFonts(t *testing.T, fonts []string, rules string) *Resolver {
	t.Helper()
	dir := t.TempDir()
	fontDir := filepath.Join(dir, "fonts")
	if err := os.Mkdir(fontDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range fonts {
		b, err := os.ReadFile(filepath.Join("/usr/share/fonts/truetype/dejavu", f))
		if err != nil {
			t.Skipf("needs the DejaVu fonts: %v", err)
		}
		if err := os.WriteFile(filepath.Join(fontDir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	conf := filepath.Join(dir, "fonts.conf")
	xml := `<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>` +
		`<dir>` + fontDir + `</dir><cachedir>` + filepath.Join(dir, "cache") + `</cachedir>` + rules + `</fontconfig>`
	if err := os.WriteFile(conf, []byte(xml), 0o644); err != nil {
		t.Fatal(err)
	}
	return &Resolver{load: func() (config, error) { return loadFile(conf) }}
}

func TestResolveSkipsFamiliesNotInstalled(t *testing.T) {
	r := withFonts(t, []string{"DejaVuSans.ttf", "DejaVuSansMono.ttf"}, "")
	if got := r.Resolve(sans); got != "DejaVu Sans" {
		t.Errorf("sans stack: %q, want DejaVu Sans (system-ui, Cantarell and the others are not installed)", got)
	}
	if got := r.Resolve(mono); got != "DejaVu Sans Mono" {
		t.Errorf("mono stack: %q, want DejaVu Sans Mono", got)
	}
}

func TestResolveFollowsTheUsersAlias(t *testing.T) {
	// A user who points system-ui at a family of their choice gets it in the
	// window (WebKit takes the configured family), so here too.
	r := withFonts(t, []string{"DejaVuSans.ttf", "DejaVuSerif.ttf"},
		`<alias binding="same"><family>system-ui</family><prefer><family>DejaVu Serif</family></prefer></alias>`)
	if got := r.Resolve(sans); got != "DejaVu Serif" {
		t.Errorf("sans stack with system-ui aliased: %q, want DejaVu Serif", got)
	}
}

func TestResolveGenericOnlyWhenNothingElse(t *testing.T) {
	// Fontconfig answers a name it lacks with its best font; WebKit refuses
	// that for a named family and takes it for a generic one.
	r := withFonts(t, []string{"DejaVuSerif.ttf"}, "")
	if got := r.Resolve([]string{"Cantarell", "Noto Sans"}); got != "" {
		t.Errorf("no family of the stack installed: %q, want \"\"", got)
	}
	if got := r.Resolve([]string{"Cantarell", "sans-serif"}); got != "DejaVu Serif" {
		t.Errorf("generic last: %q, want the font fontconfig gives (DejaVu Serif)", got)
	}
}

func TestResolveWithoutFontconfig(t *testing.T) {
	r := &Resolver{load: func() (config, error) { return loadFile(filepath.Join(t.TempDir(), "missing.conf")) }}
	if got := r.Resolve(sans); got != "" {
		t.Errorf("no configuration: %q, want \"\" (the page keeps its stack)", got)
	}
}

func TestResolveConcurrently(t *testing.T) {
	r := withFonts(t, []string{"DejaVuSans.ttf", "DejaVuSansMono.ttf"}, "")
	r.Warm()
	done := make(chan string)
	for i := 0; i < 8; i++ {
		go func() { done <- r.Resolve(sans) + "|" + r.Resolve(mono) }()
	}
	for i := 0; i < 8; i++ {
		if got := <-done; !strings.HasPrefix(got, "DejaVu Sans|") {
			t.Errorf("concurrent resolve: %q", got)
		}
	}
}

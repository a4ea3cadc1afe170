package settings

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestContextLimitsValidate(t *testing.T) {
	cases := []struct {
		c     ContextLimits
		field string // "" when valid
		words string
	}{
		{ContextLimits{}, "", ""},
		{ContextLimits{Window: 32_768, MicroCompactAt: 50, CompactAt: 60}, "", ""},
		{ContextLimits{Window: MinContextWindow, MicroCompactAt: 20, CompactAt: 100}, "", ""},
		{ContextLimits{MicroCompactAt: 84}, "", ""}, // below the default 85
		{ContextLimits{CompactAt: 71}, "", ""},      // above the default 70
		{ContextLimits{Window: 32}, "window", "between 1000 and 10000000 tokens"},
		{ContextLimits{Window: -1}, "window", "-1 is not"},
		{ContextLimits{Window: MaxContextWindow + 1}, "window", "between"},
		{ContextLimits{MicroCompactAt: 19}, "microCompactAt", "Clearing old tool output must start between 20% and 100%"},
		{ContextLimits{MicroCompactAt: 101}, "microCompactAt", "101% is not"},
		{ContextLimits{CompactAt: 5}, "compactAt", "Summarising older turns must start between 20% and 100%"},
		{ContextLimits{MicroCompactAt: 60, CompactAt: 60}, "compactAt", "above clearing old tool output (60%)"},
		{ContextLimits{MicroCompactAt: 90}, "compactAt", "(90%), which is tried first; 85% is not above it"},
		{ContextLimits{CompactAt: 70}, "compactAt", "(70%)"},
	}
	for _, c := range cases {
		err := c.c.Validate()
		var fe *FieldError
		switch {
		case c.field == "" && err != nil:
			t.Errorf("%+v refused: %v", c.c, err)
		case c.field == "":
		case !errors.As(err, &fe) || fe.Field != c.field || !strings.Contains(fe.Message, c.words):
			t.Errorf("%+v: %#v, want %s saying %q", c.c, err, c.field, c.words)
		}
	}
}

func TestContextSettingsAreSavedAndRepairedOnLoad(t *testing.T) {
	dir := t.TempDir()
	st := NewStore(dir)
	s := Defaults()
	s.SetContext(ContextLimits{Window: 32_768, MicroCompactAt: 50, CompactAt: 60})
	if err := st.Save(s); err != nil {
		t.Fatal(err)
	}
	if back, err := st.Load(); err != nil || back.Context() != (ContextLimits{32_768, 50, 60}) {
		t.Fatalf("loaded %+v %v", back.Context(), err)
	}
	s.SetContext(ContextLimits{MicroCompactAt: 90})
	if err := st.Save(s); err == nil {
		t.Fatal("saved a summary threshold (85% by default) below the clearing one")
	}
	if back, _ := st.Load(); back.Context() != (ContextLimits{32_768, 50, 60}) {
		t.Fatalf("a refused save changed the file: %+v", back.Context())
	}

	// Written by hand: each bad value falls back to its default, and a pair
	// out of order to both defaults.
	os.WriteFile(filepath.Join(dir, SettingsFile), []byte(`{"contextWindow":512,"microCompactAt":80,"compactAt":75}`), 0o644)
	if back, err := st.Load(); err != nil || back.Context() != (ContextLimits{}) {
		t.Fatalf("loaded %+v %v", back.Context(), err)
	}
}

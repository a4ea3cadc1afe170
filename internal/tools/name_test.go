package tools

import (
	"regexp"
	"strings"
	"testing"
)

func TestValidNameMatchesItsPattern(t *testing.T) {
	re := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	for _, name := range []string{"", "a", "apply_patch", "mcp__x-y", "a.b", "a b", "a\n", "é", "-", "_",
		strings.Repeat("a", 64), strings.Repeat("a", 65)} {
		if got, want := validName(name), re.MatchString(name); got != want {
			t.Errorf("validName(%q) = %v, want %v", name, got, want)
		}
	}
}

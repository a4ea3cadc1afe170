package session

import (
	"regexp"
	"strings"
	"testing"
)

func TestValidIDMatchesItsPattern(t *testing.T) {
	re := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)
	for _, id := range []string{"", "a", "A9", "9", ".a", "-a", "_a", "a.b-c_d", "a/b", "a b", "a\n", "é", "aé",
		strings.Repeat("a", 128), strings.Repeat("a", 129), "a" + strings.Repeat(".", 127), "a" + strings.Repeat(".", 128)} {
		if got, want := validID(id), re.MatchString(id); got != want {
			t.Errorf("validID(%q) = %v, want %v", id, got, want)
		}
	}
}

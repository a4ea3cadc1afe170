package sniff

import (
	"strings"
	"testing"
)

func TestBinaryAndText(t *testing.T) {
	late := strings.Repeat("a", SampleSize) + "\x00"
	for _, c := range []struct {
		data         string
		binary, text bool
	}{
		{"plain text\n", false, true},
		{"", false, true},
		{"caf\xc3\xa9", false, true},
		{"a\x00b", true, false},
		{"latin-1 caf\xe9", false, false},
		{late, false, false}, // a NUL past the sample: sampled readers miss it, Text does not
	} {
		if got := Binary(c.data); got != c.binary {
			t.Errorf("Binary(%.20q) = %v", c.data, got)
		}
		if got := Binary([]byte(c.data)); got != c.binary {
			t.Errorf("Binary([]byte %.20q) = %v", c.data, got)
		}
		if got := Text([]byte(c.data)); got != c.text {
			t.Errorf("Text(%.20q) = %v", c.data, got)
		}
	}
}

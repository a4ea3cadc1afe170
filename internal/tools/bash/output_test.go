package bash

import (
	"testing"
)

func TestCaptureCutsOnRuneBoundaries(t *testing.T) {
	c := newCapture(5, 5)
	c.Write([]byte("éééé"))
	c.Write([]byte("ééééé")) // 18 bytes: head and tail end and start inside a rune
	got, cut := c.String()
	if want := "éé\n[… 10 bytes omitted …]\néé"; got != want || !cut {
		t.Fatalf("got %q %v, want %q", got, cut, want)
	}
	c = newCapture(5, 5)
	c.Write([]byte("abcdéfgh")) // 9 bytes fit: no cut
	if got, cut := c.String(); got != "abcdéfgh" || cut {
		t.Fatalf("got %q %v", got, cut)
	}
}

func TestCollapserAcrossWrites(t *testing.T) {
	var out []byte
	c := collapser{out: func(p []byte) { out = append(out, p...) }}
	for _, w := range []string{"a: 1", "0%\r", "a: 50%", "\r", "a: 100%\r", "\nnext\r\n", "x\ry", "\r"} {
		c.Write([]byte(w))
	}
	c.Flush()
	if want := "a: 100%\nnext\ny"; string(out) != want {
		t.Fatalf("got %q, want %q", out, want)
	}
}

func TestCleanTerminal(t *testing.T) {
	if got := cleanTerminal([]byte("\x1b[1mbold\x1b[0m\r\n\x1b]0;title\x0750%\r100%\r\n")); got != "bold\n100%\n" {
		t.Fatalf("got %q", got)
	}
}

package termsafe

import (
	"strings"
	"testing"
)

func TestEscapes(t *testing.T) {
	for in, want := range map[string]string{
		"echo safe\x1b[2K\x1b[1Arm -rf ~": `echo safe\e[2K\e[1Arm -rf ~`,
		"a\rb":                            `a\rb`,
		"a\nb\tc":                         `a\nb\tc`,
		"bell\a del\x7f c1\u009b":         `bell\x07 del\x7f c1\u009b`,
		"rtl\u202eevil":                   `rtl\u202eevil`,
		"bad \xff byte":                   `bad \xff byte`,
		"plain ünïcode ✓":                 "plain ünïcode ✓",
	} {
		if got := Line(in); got != want {
			t.Errorf("Line(%q) = %q, want %q", in, got, want)
		}
		if strings.ContainsAny(Line(in), "\x1b\r\n\a\x7f") {
			t.Errorf("Line(%q) still holds a control character", in)
		}
	}
	if got := Text("a\nb\tc\x1b[0m"); got != "a\nb\tc\\e[0m" {
		t.Errorf("Text kept %q", got)
	}
}

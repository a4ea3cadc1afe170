package checkpoint

import (
	"fmt"
	"strings"

	"gatehouse/internal/protocol"
)

// hunks splits a unified diff into its "@@" chunks, numbered from 1.
func hunks(path, diff string) []protocol.HunkPreview {
	var out []protocol.HunkPreview
	var cur *protocol.HunkPreview
	var b strings.Builder
	flush := func() {
		if cur != nil {
			cur.Diff = strings.TrimSuffix(b.String(), "\n")
			out = append(out, *cur)
		}
		b.Reset()
	}
	for _, line := range strings.SplitAfter(diff, "\n") {
		if strings.HasPrefix(line, "@@") {
			flush()
			h := protocol.HunkPreview{ID: fmt.Sprintf("%s#%d", path, len(out)+1)}
			if !parseHeader(line, &h) {
				cur = nil
				continue
			}
			cur = &h
		}
		if cur != nil {
			b.WriteString(line)
		}
	}
	flush()
	return out
}

// parseHeader reads "@@ -a,b +c,d @@" (",b" and ",d" may be left out: 1).
func parseHeader(line string, h *protocol.HunkPreview) bool {
	var rest string
	fields := strings.Fields(line)
	if len(fields) < 3 {
		return false
	}
	parse := func(s string, start, n *int) bool {
		*n = 1
		a, b, two := strings.Cut(s, ",")
		if _, err := fmt.Sscanf(a, "%d", start); err != nil {
			return false
		}
		if two {
			if _, err := fmt.Sscanf(b, "%d", n); err != nil {
				return false
			}
		}
		return true
	}
	_ = rest
	return strings.HasPrefix(fields[1], "-") && strings.HasPrefix(fields[2], "+") &&
		parse(fields[1][1:], &h.OldStart, &h.OldLines) && parse(fields[2][1:], &h.NewStart, &h.NewLines)
}

// lines splits b into lines that keep their "\n".
func lines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	out := strings.SplitAfter(string(b), "\n")
	if out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// applyHunks brings the chosen hunks (numbers from 1) of the diff from cur
// to prior into cur and leaves the rest of cur as it is. Each hunk's lines
// are taken from prior itself, so line endings come back exactly.
func applyHunks(cur, prior []byte, hs []protocol.HunkPreview, chosen []int) []byte {
	want := map[int]bool{}
	for _, n := range chosen {
		want[n] = true
	}
	old, nw := lines(cur), lines(prior)
	var out []string
	at := 0 // next line of old not yet copied
	for i, h := range hs {
		if !want[i+1] {
			continue
		}
		start := h.OldStart - 1
		if h.OldLines == 0 {
			start = h.OldStart
		}
		nstart := h.NewStart - 1
		if h.NewLines == 0 {
			nstart = h.NewStart
		}
		if start < at || start+h.OldLines > len(old) || nstart+h.NewLines > len(nw) {
			continue
		}
		out = append(out, old[at:start]...)
		out = append(out, nw[nstart:nstart+h.NewLines]...)
		at = start + h.OldLines
	}
	out = append(out, old[at:]...)
	return []byte(strings.Join(out, ""))
}

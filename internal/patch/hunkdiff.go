package patch

import "strings"

// HunkDiff returns chunk h of c on its own, as one unified diff hunk
// ("@@ -a,b +c,d @@" and its lines), for a dialog that lets the user pick
// hunks. h must be one of c.Hunks, from a plan that applied it.
func (c *FileChange) HunkDiff(h Hunk) string {
	oldLines := sliceLines(c.OldContent, h.OldStart-1, h.OldLines)
	newLines := sliceLines(c.NewContent, h.NewStart-1, h.NewLines)
	var lines []diffLine
	if oldLines == newLines {
		for _, l := range strings.SplitAfter(oldLines, "\n") {
			if l != "" {
				text, eol := strings.CutSuffix(l, "\n")
				lines = append(lines, diffLine{op: opEqual, text: text, eol: eol})
			}
		}
	} else {
		lines = lineDiff(oldLines, newLines)
	}
	var b strings.Builder
	writeHunk(&b, lines, h.OldStart-1, h.OldLines, h.NewStart-1, h.NewLines)
	return b.String()
}

// sliceLines returns n lines of s from line index from (0-based), with their
// line ends.
func sliceLines(s string, from, n int) string {
	if n <= 0 || from < 0 {
		return ""
	}
	start := 0
	for i := 0; i < from; i++ {
		j := strings.IndexByte(s[start:], '\n')
		if j < 0 {
			return ""
		}
		start += j + 1
	}
	end := start
	for i := 0; i < n && end < len(s); i++ {
		j := strings.IndexByte(s[end:], '\n')
		if j < 0 {
			end = len(s)
			break
		}
		end += j + 1
	}
	return s[start:end]
}

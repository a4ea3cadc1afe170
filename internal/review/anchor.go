package review

import (
	"strings"

	"gatehouse/internal/gitview"
)

// Anchor ties each finding to the hunk of files whose new side holds its
// lines (the first such hunk; a hunk that only removes lines holds the
// place it removed them at), and keeps the lines as the hunk shows them.
// A finding in no hunk of the diff keeps no anchor; it is still a finding.
func Anchor(fs []Finding, files []gitview.FileDiff) []Finding {
	out := make([]Finding, len(fs))
	for i, f := range fs {
		f.HunkID, f.HunkHeader, f.Lines, f.LinesFrom = "", "", nil, 0
		if fd, ok := fileOf(files, f.File); ok {
			f.File = fd.Path
			for _, h := range fd.Hunks {
				_, _, ns, nc, err := h.Range()
				if err != nil {
					continue
				}
				last := ns + nc - 1
				if nc == 0 {
					last = ns
				}
				if f.StartLine > last || f.EndLine < ns {
					continue
				}
				f.HunkID, f.HunkHeader = h.ID, h.Header
				f.Lines, f.LinesFrom = newLines(h, ns, f.StartLine, f.EndLine)
				break
			}
		}
		out[i] = f
	}
	return out
}

// fileOf finds the file a finding names: its path as the diff names it,
// or with a diff's a/ or b/ prefix the model copied.
func fileOf(files []gitview.FileDiff, p string) (gitview.FileDiff, bool) {
	for _, try := range []string{p, strings.TrimPrefix(p, "b/"), strings.TrimPrefix(p, "a/")} {
		for _, fd := range files {
			if fd.Path == try {
				return fd, true
			}
		}
	}
	return gitview.FileDiff{}, false
}

// newLines are the new side's lines from..to of hunk h (whose new side
// starts at ns) that the hunk shows, and the number of the first.
func newLines(h gitview.Hunk, ns, from, to int) ([]string, int) {
	var out []string
	first := 0
	n := ns
	for _, l := range h.Lines() {
		if l == "" || l[0] == '-' || l[0] == '\\' {
			continue
		}
		if n >= from && n <= to {
			if out == nil {
				first = n
			}
			out = append(out, l[1:])
		}
		n++
	}
	return out, first
}

// Refresh marks each anchored finding outdated whose lines are no longer
// in its file as they were reviewed: read returns a file's content now by
// its path (an error: the file is gone). Lines that only moved (an edit
// above them) move the finding with them; a finding without lines is left
// as it is.
func Refresh(fs []Finding, read func(path string) ([]byte, error)) []Finding {
	out := make([]Finding, len(fs))
	cache := map[string][]string{}
	for i, f := range fs {
		out[i] = f
		if len(f.Lines) == 0 {
			continue
		}
		lines, ok := cache[f.File]
		if !ok {
			if data, err := read(f.File); err == nil {
				lines = strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
			}
			cache[f.File] = lines
		}
		at := find(lines, f.Lines, f.LinesFrom-1)
		out[i].Outdated = at < 0
		if at >= 0 {
			d := at + 1 - f.LinesFrom
			out[i].StartLine, out[i].EndLine, out[i].LinesFrom = f.StartLine+d, f.EndLine+d, f.LinesFrom+d
		}
	}
	return out
}

// find returns where want starts in lines: at want's own place when it is
// still there, else its one other place; -1 when it is nowhere or in
// several places (which one it was cannot be told).
func find(lines, want []string, at int) int {
	match := func(i int) bool {
		if i < 0 || i+len(want) > len(lines) {
			return false
		}
		for j, w := range want {
			if lines[i+j] != w {
				return false
			}
		}
		return true
	}
	if match(at) {
		return at
	}
	found := -1
	for i := range lines {
		if match(i) {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

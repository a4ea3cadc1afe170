package patch

import (
	"fmt"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

const diffContext = 3

type diffLine struct {
	op   diffmatchpatch.Operation
	text string // without its "\n"
	eol  bool   // the line ends with "\n" (only the last one of a side may not)
}

const (
	opEqual  = diffmatchpatch.DiffEqual
	opDelete = diffmatchpatch.DiffDelete
	opInsert = diffmatchpatch.DiffInsert
)

// unifiedDiff lays out a line diff as a unified diff with 3 lines of context
// and counts the lines it adds and removes. The line diff itself comes from
// go-diff (lineDiff).
func unifiedDiff(oldPath, newPath string, lines []diffLine, added, deleted bool) (string, int, int) {
	changed := false
	for _, l := range lines {
		if l.op != opEqual {
			changed = true
			break
		}
	}
	if !changed {
		return "", 0, 0
	}
	var b strings.Builder
	from, to := "a/"+oldPath, "b/"+newPath
	if added {
		from = "/dev/null"
	}
	if deleted {
		to = "/dev/null"
	}
	fmt.Fprintf(&b, "--- %s\n+++ %s\n", from, to)

	// oldNo[i], newNo[i]: lines of each side before lines[i].
	oldNo := make([]int, len(lines)+1)
	newNo := make([]int, len(lines)+1)
	nAdd, nDel := 0, 0
	for i, l := range lines {
		oldNo[i+1], newNo[i+1] = oldNo[i], newNo[i]
		switch l.op {
		case diffmatchpatch.DiffEqual:
			oldNo[i+1]++
			newNo[i+1]++
		case diffmatchpatch.DiffDelete:
			oldNo[i+1]++
			nDel++
		case diffmatchpatch.DiffInsert:
			newNo[i+1]++
			nAdd++
		}
	}
	i := 0
	for {
		for i < len(lines) && lines[i].op == diffmatchpatch.DiffEqual {
			i++
		}
		if i == len(lines) {
			break
		}
		start := max(i-diffContext, 0)
		j := i
		for j < len(lines) {
			if lines[j].op != diffmatchpatch.DiffEqual {
				j++
				continue
			}
			k := j
			for k < len(lines) && lines[k].op == diffmatchpatch.DiffEqual {
				k++
			}
			if k == len(lines) || k-j > 2*diffContext {
				break
			}
			j = k
		}
		end := min(j+diffContext, len(lines))
		for end > j && lines[end-1].op != diffmatchpatch.DiffEqual {
			end--
		}
		writeHunk(&b, lines[start:end], oldNo[start], oldNo[end]-oldNo[start], newNo[start], newNo[end]-newNo[start])
		i = end
	}
	return b.String(), nAdd, nDel
}

func hunkRange(before, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", before)
	}
	if n == 1 {
		return fmt.Sprintf("%d", before+1)
	}
	return fmt.Sprintf("%d,%d", before+1, n)
}

func writeHunk(b *strings.Builder, lines []diffLine, oldBefore, oldN, newBefore, newN int) {
	fmt.Fprintf(b, "@@ -%s +%s @@\n", hunkRange(oldBefore, oldN), hunkRange(newBefore, newN))
	for _, l := range lines {
		switch l.op {
		case diffmatchpatch.DiffEqual:
			b.WriteByte(' ')
		case diffmatchpatch.DiffDelete:
			b.WriteByte('-')
		case diffmatchpatch.DiffInsert:
			b.WriteByte('+')
		}
		b.WriteString(l.text)
		if l.eol {
			b.WriteByte('\n')
		} else {
			b.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// lineDiff diffs old and new line by line.
func lineDiff(old, new string) []diffLine {
	dmp := diffmatchpatch.New()
	a, b, arr := dmp.DiffLinesToRunes(old, new)
	diffs := dmp.DiffCharsToLines(dmp.DiffMainRunes(a, b, false), arr)
	out := make([]diffLine, 0, strings.Count(old, "\n")+8)
	for _, d := range diffs {
		s := d.Text
		for s != "" {
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				out = append(out, diffLine{d.Type, s, false})
				break
			}
			out = append(out, diffLine{d.Type, s[:i], true})
			s = s[i+1:]
		}
	}
	return out
}

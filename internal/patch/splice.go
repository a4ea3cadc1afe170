package patch

import "strings"

// splice applies the located replacements (sorted by position) to t and
// returns the new content, one Hunk per chunk (in chunk order) and the line
// diff. The diff is computed only inside the replaced regions, so its cost
// is linear in the file plus the diff library's cost on each region.
func splice(t *text, reps []replacement, path string, chosen map[int]bool) (string, []Hunk, []diffLine, error) {
	eol := t.eol()
	extra := 0
	for _, r := range reps {
		extra += len(r.lines)
	}
	old := t.lines
	out := make([]string, 0, len(old)+extra)
	hunks := make([]Hunk, len(reps))
	type region struct{ oldAt, oldN, newAt, newN int }
	regions := make([]region, 0, len(reps))
	cur := 0
	for _, r := range reps {
		if r.at < cur {
			return "", nil, nil, errf(CodeContextNotFound, path, "chunk %d overlaps the chunk before it", r.chunk+1)
		}
		out = append(out, old[cur:r.at]...)
		h := Hunk{ID: HunkID(path, r.chunk+1), OldStart: r.at + 1, OldLines: r.n, NewStart: len(out) + 1}
		h.Selected = chosen == nil || chosen[r.chunk]
		if h.Selected {
			pos := r.at
			for _, l := range r.lines {
				switch l.Kind {
				case Context:
					out = append(out, old[pos]) // the file's own bytes
					pos++
				case Remove:
					pos++
				case Insert:
					out = append(out, l.Text+eol)
				}
			}
		} else {
			out = append(out, old[r.at:r.at+r.n]...)
		}
		h.NewLines = len(out) - (h.NewStart - 1)
		hunks[r.chunk] = h
		if h.Selected {
			regions = append(regions, region{r.at, r.n, h.NewStart - 1, h.NewLines})
		}
		cur = r.at + r.n
	}
	out = append(out, old[cur:]...)

	// The line diff: equal lines between regions, go-diff inside them.
	diff := make([]diffLine, 0, len(old)+extra)
	oi := 0
	for _, g := range regions {
		for ; oi < g.oldAt; oi++ {
			diff = append(diff, diffLine{op: opEqual, text: old[oi], eol: true})
		}
		a := joinLines(old[g.oldAt:g.oldAt+g.oldN], g.oldAt+g.oldN == len(old) && !t.finalNL)
		b := joinLines(out[g.newAt:g.newAt+g.newN], g.newAt+g.newN == len(out) && !t.finalNL)
		if a != b {
			diff = append(diff, lineDiff(a, b)...)
		} else {
			for _, l := range old[g.oldAt : g.oldAt+g.oldN] {
				diff = append(diff, diffLine{op: opEqual, text: l, eol: true})
			}
		}
		oi = g.oldAt + g.oldN
	}
	for ; oi < len(old); oi++ {
		diff = append(diff, diffLine{op: opEqual, text: old[oi], eol: true})
	}
	if !t.finalNL && len(diff) > 0 {
		last := &diff[len(diff)-1]
		if last.op == opEqual {
			last.eol = false
		}
	}
	t.lines = out
	return t.join(), hunks, diff, nil
}

func joinLines(lines []string, noFinalNL bool) string {
	if len(lines) == 0 {
		return ""
	}
	s := strings.Join(lines, "\n")
	if noFinalNL {
		return s
	}
	return s + "\n"
}

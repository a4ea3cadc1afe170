package patch

// splice applies the located replacements (sorted by position) to t and
// returns the new content and one Hunk per chunk, in chunk order.
func splice(t *text, reps []replacement, path string, chosen map[int]bool) ([]byte, []Hunk, error) {
	eol := t.eol()
	extra := 0
	for _, r := range reps {
		extra += len(r.lines)
	}
	out := make([]string, 0, len(t.lines)+extra)
	hunks := make([]Hunk, len(reps))
	cur := 0
	for _, r := range reps {
		if r.at < cur {
			return nil, nil, errf(CodeContextNotFound, path, "chunk %d overlaps the chunk before it", r.chunk+1)
		}
		out = append(out, t.lines[cur:r.at]...)
		h := Hunk{ID: HunkID(path, r.chunk+1), OldStart: r.at + 1, OldLines: r.n, NewStart: len(out) + 1}
		h.Selected = chosen == nil || chosen[r.chunk]
		if h.Selected {
			pos := r.at
			for _, l := range r.lines {
				switch l.Kind {
				case Context:
					out = append(out, t.lines[pos]) // the file's own bytes
					pos++
				case Remove:
					pos++
				case Insert:
					out = append(out, l.Text+eol)
				}
			}
		} else {
			out = append(out, t.lines[r.at:r.at+r.n]...)
		}
		h.NewLines = len(out) - (h.NewStart - 1)
		hunks[r.chunk] = h
		cur = r.at + r.n
	}
	out = append(out, t.lines[cur:]...)
	t.lines = out
	return t.join(), hunks, nil
}

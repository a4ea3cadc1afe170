package patch

import (
	"regexp"
	"strconv"
	"strings"
)

// readFileNumber is the prefix read_file puts before each line it returns
// (`cat -n`: the number right-aligned in six columns, then a tab).
var readFileNumber = regexp.MustCompile(`^ *[0-9]+\t`)

// unnumbered returns a chunk's lines without the read_file numbers a model
// copied with them, when every line the chunk expects in the file (context
// and removed) carries one; nums are those numbers, in order. Inserted
// lines lose a number only where they have one.
func unnumbered(lines []Line) (out []Line, nums []int, ok bool) {
	out = make([]Line, len(lines))
	for i, l := range lines {
		prefix := readFileNumber.FindString(l.Text)
		if prefix == "" && l.Kind != Insert {
			return nil, nil, false
		}
		out[i] = Line{Kind: l.Kind, Text: l.Text[len(prefix):]}
		if l.Kind != Insert {
			n, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(prefix, "\t")))
			if err != nil {
				return nil, nil, false
			}
			nums = append(nums, n)
		}
	}
	return out, nums, len(nums) > 0
}

// numbersFrom reports whether nums count up by one from first: the numbers
// a model copied name exactly the lines they were found at.
func numbersFrom(nums []int, first int) bool {
	for i, n := range nums {
		if n != first+i {
			return false
		}
	}
	return true
}

// numberedHint explains a chunk that was not found when every one of its
// lines starts with a read_file line number: the model copied the numbers
// with the lines, and they did not name the lines found (see unnumbered).
func numberedHint(old []string) string {
	n := 0
	for _, l := range old {
		if l == "" {
			continue
		}
		if !readFileNumber.MatchString(l) {
			return ""
		}
		n++
	}
	if n == 0 {
		return ""
	}
	return "\n(these lines start with read_file's line numbers; the number and the tab after it are not part of the file: leave them out of the patch)"
}

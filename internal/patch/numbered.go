package patch

import "regexp"

// readFileNumber is the prefix read_file puts before each line it returns
// (`cat -n`: the number right-aligned in six columns, then a tab).
var readFileNumber = regexp.MustCompile(`^ *[0-9]+\t`)

// numberedHint explains a chunk that was not found when every one of its
// lines starts with a read_file line number: the model copied the numbers
// with the lines. The patch is not rewritten; a file line may well start
// with digits and a tab, so only the model can say which it meant.
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

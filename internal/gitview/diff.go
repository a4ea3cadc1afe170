package gitview

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// FileDiff is one file of a diff, as git printed it.
type FileDiff struct {
	// Path is the file's path (the new one; the old one for a deletion),
	// relative to the working tree's top, slash separated.
	Path string `json:"path"`
	// Status: "A" added, "D" deleted, "M" modified (content or mode).
	Status string `json:"status"`
	// Binary is set when git shows no text hunks ("Binary files differ").
	Binary bool `json:"binary,omitempty"`
	// Added and Removed count the file's + and − lines.
	Added   int `json:"added"`
	Removed int `json:"removed"`
	// Hunks are the file's "@@" chunks, in order.
	Hunks []Hunk `json:"hunks"`
	// Diff is the file's whole diff text (header and hunks).
	Diff string `json:"diff"`

	header []string // the lines before the first hunk
}

// Hunk is one "@@" chunk of a file's diff.
type Hunk struct {
	// Header is the "@@ -a,b +c,d @@ …" line.
	Header string `json:"header"`
	// ID names the hunk by its file, header and lines: an operation asked
	// for a hunk whose ID no longer matches the diff is refused as stale.
	ID string `json:"id"`

	lines []string // the header and every line after it, up to the next hunk
}

// ParseDiff splits a diff in git's format ("diff --git" headers) into
// files, each hunk with its ID.
func ParseDiff(out string) []FileDiff { return parseDiff(out) }

// parseDiff splits git's unified diff output into files.
func parseDiff(out string) []FileDiff {
	var files []FileDiff
	var cur *FileDiff
	var hunk *Hunk
	endHunk := func() {
		if cur != nil && hunk != nil {
			hunk.ID = hunkID(cur.Path, hunk.lines)
			cur.Hunks = append(cur.Hunks, *hunk)
		}
		hunk = nil
	}
	lines := strings.SplitAfter(out, "\n")
	for _, l := range lines {
		if l == "" {
			continue
		}
		switch {
		case strings.HasPrefix(l, "diff --git "):
			endHunk()
			if cur != nil {
				files = append(files, *cur)
			}
			cur = &FileDiff{Status: "M", Path: pathFromGitLine(l)}
			cur.header = append(cur.header, l)
			cur.Diff += l
			continue
		case cur == nil:
			continue
		}
		cur.Diff += l
		if hunk == nil && !strings.HasPrefix(l, "@@") {
			cur.header = append(cur.header, l)
			switch {
			case strings.HasPrefix(l, "new file mode"):
				cur.Status = "A"
			case strings.HasPrefix(l, "deleted file mode"):
				cur.Status = "D"
			case strings.HasPrefix(l, "Binary files"), strings.HasPrefix(l, "GIT binary patch"):
				cur.Binary = true
			case strings.HasPrefix(l, "+++ b/"):
				cur.Path = unquote(strings.TrimSuffix(strings.TrimPrefix(l, "+++ b/"), "\n"))
			case strings.HasPrefix(l, "--- a/") && cur.Status == "D":
				cur.Path = unquote(strings.TrimSuffix(strings.TrimPrefix(l, "--- a/"), "\n"))
			}
			continue
		}
		if strings.HasPrefix(l, "@@") {
			endHunk()
			hunk = &Hunk{Header: strings.TrimSuffix(l, "\n")}
		}
		hunk.lines = append(hunk.lines, l)
		switch l[0] {
		case '+':
			cur.Added++
		case '-':
			cur.Removed++
		}
	}
	endHunk()
	if cur != nil {
		files = append(files, *cur)
	}
	return files
}

// pathFromGitLine reads the b/ path of a "diff --git a/x b/x" line, for a
// file without ---/+++ lines (a mode change, an empty new file, a binary).
func pathFromGitLine(l string) string {
	l = strings.TrimSuffix(strings.TrimPrefix(l, "diff --git "), "\n")
	if strings.HasPrefix(l, `"`) {
		// Quoted paths: take the second quoted string.
		if i := strings.Index(l[1:], `" "`); i >= 0 {
			return strings.TrimPrefix(unquote(l[i+3:]), "b/")
		}
	}
	// a/P b/P with the same P: the second half.
	if n := len(l); n > 4 && (n-1)%2 == 0 {
		half := (n - 1) / 2
		if l[:2] == "a/" && l[half+1:half+3] == "b/" && l[2:half] == l[half+3:] {
			return l[half+3:]
		}
	}
	if i := strings.Index(l, " b/"); i >= 0 {
		return l[i+3:]
	}
	return l
}

// unquote undoes git's C-style quoting of a path ("a\tb"); core.quotePath
// is off in every command, so only control characters, quotes and
// backslashes are quoted.
func unquote(s string) string {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return s
	}
	s = s[1 : len(s)-1]
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case '"', '\\':
			b.WriteByte(s[i])
		default:
			if i+2 < len(s) && isOctal(s[i]) && isOctal(s[i+1]) && isOctal(s[i+2]) {
				b.WriteByte((s[i]-'0')<<6 | (s[i+1]-'0')<<3 | (s[i+2] - '0'))
				i += 2
			} else {
				b.WriteByte(s[i])
			}
		}
	}
	return b.String()
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

func hunkID(path string, lines []string) string {
	h := sha256.New()
	h.Write([]byte(path))
	h.Write([]byte{0})
	for _, l := range lines {
		h.Write([]byte(l))
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// patchOf is a patch of one hunk of f: the file's header and that hunk
// alone, which `git apply` takes as it is (the other hunks' lines are not
// in it, so their offsets do not matter).
func (f FileDiff) patchOf(h Hunk) []byte {
	var b strings.Builder
	for _, l := range f.header {
		b.WriteString(l)
	}
	for _, l := range h.lines {
		b.WriteString(l)
	}
	return []byte(b.String())
}

// findHunk returns the hunk of files at path with id.
func findHunk(files []FileDiff, path, id string) (FileDiff, Hunk, bool) {
	for _, f := range files {
		if f.Path != path {
			continue
		}
		for _, h := range f.Hunks {
			if h.ID == id {
				return f, h, true
			}
		}
	}
	return FileDiff{}, Hunk{}, false
}

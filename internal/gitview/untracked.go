package gitview

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"gatehouse/internal/workspace"
)

// MaxUntrackedBytes bounds the text of an untracked file shown as added;
// a larger file shows as a binary one does (named, no lines).
const MaxUntrackedBytes = 1 << 20

// untrackedDiff is the untracked (not ignored) files of the workspace's
// folder as added files, in git's diff format: listed by the repository's
// git (safe mode while untrusted), their contents read here, never by a
// program the repository configures. A symbolic link shows its target, as
// git shows one; a file past MaxUntrackedBytes, with a NUL byte or that is
// not UTF-8 shows as binary.
func (r *Repo) untrackedDiff(ctx context.Context) (string, error) {
	paths, err := r.untracked(ctx)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, p := range paths {
		addedFileDiff(&b, p, filepath.Join(r.Dir, filepath.FromSlash(r.Prefix+p)))
	}
	return b.String(), nil
}

// addedFileDiff writes path (the file on disk at full) as an added file.
// A file gone or unreadable since git listed it is left out.
func addedFileDiff(b *strings.Builder, path, full string) {
	fi, err := os.Lstat(full)
	if err != nil {
		return
	}
	var data []byte
	mode := "100644"
	binary := false
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		mode = "120000"
		target, err := os.Readlink(full)
		if err != nil {
			return
		}
		data = []byte(target)
	case fi.Mode().IsRegular():
		if fi.Mode()&0o111 != 0 {
			mode = "100755"
		}
		if data, binary, err = readText(full); err != nil {
			return
		}
	default:
		return
	}
	a, bb := QuotePath("a/"+path), QuotePath("b/"+path)
	fmt.Fprintf(b, "diff --git %s %s\nnew file mode %s\n", a, bb, mode)
	switch {
	case binary:
		fmt.Fprintf(b, "Binary files /dev/null and %s differ\n", bb)
		return
	case len(data) == 0:
		return
	}
	fmt.Fprintf(b, "--- /dev/null\n+++ %s\n", bb)
	text := string(data)
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 1 {
		b.WriteString("@@ -0,0 +1 @@\n")
	} else {
		fmt.Fprintf(b, "@@ -0,0 +1,%d @@\n", len(lines))
	}
	for _, l := range lines {
		b.WriteString("+" + l)
	}
	if !strings.HasSuffix(text, "\n") {
		b.WriteString("\n\\ No newline at end of file\n")
	}
}

// readText reads a regular file's text (workspace.ReadRegular: a link
// swapped in since, a FIFO or a device is refused); binary reports a file
// too large, with a NUL byte or not UTF-8.
func readText(full string) (data []byte, binary bool, err error) {
	data, truncated, err := workspace.ReadRegular(full, MaxUntrackedBytes)
	if err != nil {
		return nil, false, err
	}
	if truncated || bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
		return nil, true, nil
	}
	return data, false, nil
}

// QuotePath quotes a path as git does with core.QuotePath off: only when
// it holds a control character, a double quote or a backslash.
func QuotePath(p string) string {
	if !strings.ContainsFunc(p, func(c rune) bool { return c < 0x20 || c == 0x7f || c == '"' || c == '\\' }) {
		return p
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\%03o`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

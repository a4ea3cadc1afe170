// Package sniff tells text from binary content, the one rule every reader
// of workspace files uses (read_file, grep, apply_patch, the file viewer).
package sniff

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// SampleSize is how much of a file Binary looks at.
const SampleSize = 8000

// Binary reports whether data looks binary: a NUL byte in its first
// SampleSize bytes (git's rule). It is enough for a reader that only samples
// a file (grep) or edits it by lines whatever its encoding (apply_patch).
func Binary[T string | []byte](data T) bool {
	head := data[:min(len(data), SampleSize)]
	switch h := any(head).(type) {
	case string:
		return strings.IndexByte(h, 0) >= 0
	case []byte:
		return bytes.IndexByte(h, 0) >= 0
	}
	return false
}

// Text reports whether all of data can be shown as text as it is: valid
// UTF-8 without a NUL byte. A reader that hands the content on as a string
// (read_file to the model, the viewer to the page) needs this, or bytes
// would be replaced on the way.
func Text(data []byte) bool {
	return !Binary(data) && bytes.IndexByte(data, 0) < 0 && utf8.Valid(data)
}

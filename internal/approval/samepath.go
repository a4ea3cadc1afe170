package approval

import (
	"path/filepath"
	"runtime"
	"strings"
)

// foldPaths: the file systems of this system name a file by more than one
// spelling (macOS and Windows: any case; Windows also drops trailing dots
// and spaces of a name, and reads a file's data stream as name::$DATA).
// A path the resolver passed on as the model spelled it (.ENV, .env.)
// opens the file a rule names (.env), so the rules match every spelling.
var foldPaths = runtime.GOOS == "darwin" || runtime.GOOS == "windows"

// windowsNames: names are spelt as on Windows (see foldPaths).
var windowsNames = runtime.GOOS == "windows"

// samePath is workspace-relative p as a rule matches it where foldPaths:
// lower case, and on Windows each name without its trailing dots and
// spaces or a ":stream" suffix.
func samePath(p string) string {
	p = strings.ToLower(filepath.ToSlash(p))
	if !windowsNames {
		return p
	}
	parts := strings.Split(p, "/")
	for i, n := range parts {
		n, _, _ = strings.Cut(n, ":")
		if t := strings.TrimRight(n, ". "); t != "" {
			n = t
		}
		parts[i] = n
	}
	return strings.Join(parts, "/")
}

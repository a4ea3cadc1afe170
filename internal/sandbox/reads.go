package sandbox

import (
	"os"
	"path/filepath"
	"slices"
)

// ReadGrants returns what a command confined by Landlock alone may read:
// Landlock only grants, so "everything but deny" becomes a grant for each
// top-level folder, and within each folder on the way to a denied path, a
// grant for each entry but the denied one.
//
// What this misses, said in the UI too: entries created after the command
// started in a folder on such a way (the home folder, ~/.config) are not
// readable by it (a new file in ~ is invisible to it until its next
// command); and it reads a denied path through a hard link elsewhere.
func ReadGrants(deny []string) []string {
	var out []string
	var walk func(dir string)
	walk = func(dir string) {
		if slices.Contains(deny, dir) {
			return
		}
		inside := false
		for _, d := range deny {
			if d != dir && Within(d, dir) {
				inside = true
				break
			}
		}
		if !inside {
			out = append(out, dir)
			return
		}
		names, err := readDirNames(dir)
		if err != nil {
			return
		}
		for _, n := range names {
			walk(filepath.Join(dir, n))
		}
	}
	walk("/")
	return out
}

func readDirNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	slices.Sort(names)
	return names, err
}

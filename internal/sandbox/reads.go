package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
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
	key := strings.Join(deny, "\x00")
	grantsMu.Lock()
	c, ok := grantsCache[key]
	grantsMu.Unlock()
	if ok && c.fresh() {
		return slices.Clone(c.grants)
	}
	c = readGrants(deny)
	grantsMu.Lock()
	if len(grantsCache) >= maxCachedGrants {
		clear(grantsCache)
	}
	grantsCache[key] = c
	grantsMu.Unlock()
	return slices.Clone(c.grants)
}

// cachedGrants are the grants of a deny list and the folders whose entries
// they list, each with its identity and modification time when listed: an
// entry added, removed or renamed in one of them changes its time. A
// command confined by Landlock alone gets them without a walk of those
// folders (on a busy /tmp or home folder, thousands of entries) while none
// of them changed.
type cachedGrants struct {
	grants []string
	listed map[string]string // folder: fileStamp
}

func (c cachedGrants) fresh() bool {
	for dir, stamp := range c.listed {
		if fileStamp(dir) != stamp {
			return false
		}
	}
	return true
}

// fileStamp is path's identity and modification time, "" when missing.
func fileStamp(path string) string {
	fi, err := os.Lstat(path)
	if err != nil {
		return ""
	}
	return fileID(path) + "@" + strconv.FormatInt(fi.ModTime().UnixNano(), 10)
}

const maxCachedGrants = 8

var (
	grantsMu    sync.Mutex
	grantsCache = map[string]cachedGrants{}
)

func readGrants(deny []string) cachedGrants {
	c := cachedGrants{listed: map[string]string{}}
	var out []string
	var walk func(dir string)
	walk = func(dir string) {
		if slices.Contains(deny, dir) || dir == "/dev" { // /dev: only Devices, granted with them
			return
		}
		if fi, err := os.Stat(dir); filepath.Dir(dir) == "/" && err == nil && !fi.IsDir() {
			return // a file at the top: a swap file or the like
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
		c.listed[dir] = fileStamp(dir) // before the listing: a change during it shows next time
		names, err := readDirNames(dir)
		if err != nil {
			return
		}
		for _, n := range names {
			walk(filepath.Join(dir, n))
		}
	}
	walk("/")
	c.grants = out
	return c
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

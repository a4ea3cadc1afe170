//go:build !unix

package workspace

import (
	"os"
)

// openNoFollow opens path read-only, refusing a symlink as its last
// component: without O_NOFOLLOW, the link is looked at first (a swap in
// between is caught by OpenRegular's fstat of what was opened, which must
// be a regular file).
func openNoFollow(path string) (*os.File, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return nil, &NotRegularError{Path: path, Kind: "a symbolic link"}
	}
	if k := Kind(fi.Mode()); k != "" {
		return nil, &NotRegularError{Path: path, Kind: k}
	}
	return os.Open(path)
}

package sandbox

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// InnerHelper is where the helper is mounted inside a sandbox whose /tmp is
// private, when the helper itself lives below /tmp (tests).
const InnerHelper = "/tmp/.gatehouse-supervisor"

// BwrapArgs returns bubblewrap's command line that runs inner (the helper's
// inner stage and the shell) in the namespaces of p, started in dir: the
// whole file system as it is, a fresh /proc, then the private /tmp, empty
// mounts over denied paths and hidden sockets, the writable folders those
// covered mounted back, .git pinned and the guarded paths read-only.
// Paths are looked up when it runs: a denied file that does not exist is
// skipped. helper is the helper's own path; inner[0] names it.
func (p Policy) BwrapArgs(dir string, inner []string) []string {
	a := []string{"--unshare-user", "--unshare-pid", "--unshare-ipc", "--die-with-parent"}
	if p.NoNetwork {
		a = append(a, "--unshare-net")
	}
	a = append(a, "--dev-bind", "/", "/", "--proc", "/proc")
	covered := slicesConcat(p.DenyRead, p.HideSockets)
	if p.PrivateTmp != "" {
		a = append(a, "--bind", p.PrivateTmp, "/tmp")
		covered = append(covered, "/tmp")
		if len(inner) > 0 && Within(inner[0], "/tmp") {
			a = append(a, "--ro-bind", inner[0], InnerHelper)
			inner = append([]string{InnerHelper}, inner[1:]...)
		}
	}
	// Mounts go parents first: a folder mounted back inside a denied one,
	// a denied one inside a writable folder mounted back.
	type mount struct {
		path string
		args []string
	}
	var mounts []mount
	var empty []string // made read-only once what is inside is mounted
	for _, d := range slicesConcat(p.DenyRead, p.HideSockets) {
		fi, err := os.Stat(d)
		switch {
		case err != nil:
			continue
		case fi.IsDir():
			mounts = append(mounts, mount{d, []string{"--tmpfs", d}})
			empty = append(empty, d)
		default:
			mounts = append(mounts, mount{d, []string{"--ro-bind", "/dev/null", d}})
		}
	}
	for _, w := range p.Writable {
		for _, c := range covered {
			if Within(w, c) && w != "/tmp" {
				if _, err := os.Stat(w); err == nil {
					mounts = append(mounts, mount{w, []string{"--bind", w, w}})
				}
				break
			}
		}
	}
	sort.SliceStable(mounts, func(i, j int) bool {
		return strings.Count(mounts[i].path, "/") < strings.Count(mounts[j].path, "/")
	})
	for _, m := range mounts {
		a = append(a, m.args...)
	}
	for _, d := range empty {
		a = append(a, "--remount-ro", d)
	}
	for _, g := range p.Pinned {
		a = append(a, "--bind", g, g)
	}
	for _, r := range p.ReadOnly {
		if _, err := os.Lstat(r); err == nil {
			a = append(a, "--ro-bind", r, r)
		}
	}
	if dir != "" {
		a = append(a, "--chdir", filepath.Clean(dir))
	}
	a = append(a, "--")
	return append(a, inner...)
}

func slicesConcat(a, b []string) []string { return append(append([]string(nil), a...), b...) }

package sandbox

import (
	"os"
	"path/filepath"
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
	var empty []string // made read-only once the writable folders inside are back
	for _, d := range slicesConcat(p.DenyRead, p.HideSockets) {
		fi, err := os.Stat(d)
		switch {
		case err != nil:
			continue
		case fi.IsDir():
			a = append(a, "--tmpfs", d)
			empty = append(empty, d)
		default:
			a = append(a, "--ro-bind", "/dev/null", d)
		}
	}
	for _, w := range p.Writable {
		for _, c := range covered {
			if Within(w, c) && w != "/tmp" {
				if _, err := os.Stat(w); err == nil {
					a = append(a, "--bind", w, w)
				}
				break
			}
		}
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

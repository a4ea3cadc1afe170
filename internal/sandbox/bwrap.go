package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// RootInside is the user and group Gatehouse run as root is inside a
// holder's namespaces (HoldArgs): not 0, so that joined commands hold no
// capability.
const RootInside = 65534

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
	return p.bwrapArgs(dir, inner, true)
}

// HoldArgs returns bubblewrap's command line that makes the namespaces of
// p (but the PID namespace and its /proc: commands that join them stay in
// the app's, see JoinArgs) and runs inner in them, to hold them for the
// commands that join.
func (p Policy) HoldArgs(inner []string) []string { return p.bwrapArgs("/", inner, false) }

func (p Policy) bwrapArgs(dir string, inner []string, pidNS bool) []string {
	a := []string{"--unshare-user", "--unshare-ipc", "--die-with-parent"}
	if !pidNS && os.Geteuid() == 0 {
		// Run as root, a command joining the holder's user namespace would
		// be root there (setns gives every capability, and an exec as uid 0
		// keeps them): the user is someone else inside, so an exec drops
		// them. Bubblewrap started per command drops them itself.
		a = append(a, "--uid", strconv.Itoa(RootInside), "--gid", strconv.Itoa(RootInside))
	}
	if pidNS {
		a = append(a, "--unshare-pid")
	}
	if p.NoNetwork {
		a = append(a, "--unshare-net")
	}
	// Shared memory of the sandbox's own, not the user's other programs'.
	// (Bubblewrap's fresh --dev would do /dev/pts too, but it then runs
	// the command in a second user namespace nested in the one that owns
	// the mount and IPC namespaces, which a joining command cannot enter.)
	a = append(a, "--dev-bind", "/", "/", "--perms", "1777", "--tmpfs", "/dev/shm")
	if pidNS {
		a = append(a, "--proc", "/proc")
	}
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
	for _, r := range p.ReadBack {
		for _, c := range covered {
			if Within(r, c) {
				if fi, err := os.Stat(r); err == nil && fi.IsDir() {
					mounts = append(mounts, mount{r, []string{"--ro-bind", r, r}})
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
	// A denied path inside .git or a read-only path (a policy's deny of
	// .vscode/secrets.json) is hidden again over those binds, which show
	// the app's file system as it is.
	guards := slicesConcat(p.Pinned, p.ReadOnly)
	for _, m := range mounts {
		if slices.Contains(p.DenyRead, m.path) && slices.ContainsFunc(guards, func(g string) bool { return Within(m.path, g) }) {
			a = append(a, m.args...)
			if m.args[0] == "--tmpfs" {
				a = append(a, "--remount-ro", m.path)
			}
		}
	}
	if dir != "" {
		a = append(a, "--chdir", filepath.Clean(dir))
	}
	a = append(a, "--")
	return append(a, inner...)
}

func slicesConcat(a, b []string) []string { return append(append([]string(nil), a...), b...) }

// JoinArgs returns the command line that runs argv in the namespaces a
// holder made for p (HoldArgs): nsenter joins the holder's user, mount and
// IPC namespaces (and network namespace with NoNetwork; in the session's
// network, NetNS, a first nsenter joins that), takes its root
// and enters the command's folder in that tree. The namespaces and the
// two folders come as descriptors 3 and up, in the order of JoinFiles:
// nsenter is started from a thread already under Landlock, whose
// ptrace scope keeps it from opening them under /proc/<holder> itself.
func (p Policy) JoinArgs(argv []string) []string {
	fd := 3
	next := func() string {
		fd++
		return "/proc/self/fd/" + strconv.Itoa(fd-1)
	}
	var a []string
	if p.InSessionNet() {
		// The session's network first (NetPrefix), from the keeper's user
		// namespace, in which the holder's is nested.
		a = []string{p.Nsenter, "--preserve-credentials", "--user=" + next(), "--net=" + next(), "--"}
	}
	a = append(a, p.Nsenter, "--preserve-credentials", "--user="+next(), "--mount="+next(), "--ipc="+next())
	if p.NoNetwork {
		a = append(a, "--net="+next())
	}
	a = append(a, "--root="+next(), "--wd="+next(), "--")
	return append(a, argv...)
}

// JoinFiles are the files of the holder process whose descriptors
// JoinArgs names, in order: its namespaces, its root, and dir seen from
// that root (a folder opened from outside would keep the command in the
// app's mount tree).
func (p Policy) JoinFiles(holder int, dir string) []string {
	var f []string
	if p.InSessionNet() {
		k := "/proc/" + strconv.Itoa(p.NetNS) + "/ns/"
		f = []string{k + "user", k + "net"}
	}
	base := "/proc/" + strconv.Itoa(holder)
	f = append(f, base+"/ns/user", base+"/ns/mnt", base+"/ns/ipc")
	if p.NoNetwork {
		f = append(f, base+"/ns/net")
	}
	return append(f, base+"/root", base+"/root"+filepath.Clean("/"+dir))
}

// HolderKey identifies the namespaces p needs: its flags and the identity
// (device and inode) of every path a holder mounts or binds. A mount
// follows the file it was made on, so a path replaced since (git rewrites
// .git/config by renaming a new file over it; a denied folder removed and
// made again) needs a new holder: the old one would show the old file, or
// nothing at all where the new one must be hidden.
func (p Policy) HolderKey() string {
	var b strings.Builder
	for _, a := range p.Args() {
		b.WriteString(a)
		b.WriteByte(0)
	}
	paths := slicesConcat(p.Writable, slicesConcat(p.HideSockets, p.ReadOnly))
	for _, path := range append(slicesConcat(paths, p.Pinned), p.PrivateTmp) {
		b.WriteString(fileID(path))
		b.WriteByte(0)
	}
	for _, path := range p.DenyRead {
		// A denied file removed and made again (a new .env) may get the
		// same inode: when it was made tells them apart.
		b.WriteString(madeID(path))
		b.WriteByte(0)
	}
	return b.String()
}

package sandbox

import (
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// sysLandlockCreateRuleset is landlock_create_ruleset(2) on every Linux
// architecture (the syscall numbers were unified).
const sysLandlockCreateRuleset = 444

// ABI is the kernel's Landlock ABI version, 0 without Landlock. It asks the
// kernel directly, so the app need not link go-landlock.
func ABI() int {
	const versionFlag = 1 // LANDLOCK_CREATE_RULESET_VERSION
	v, _, errno := syscall.Syscall(sysLandlockCreateRuleset, 0, 0, versionFlag)
	if errno != 0 || int(v) < 0 {
		return 0
	}
	return int(v)
}

// fileID is the device and inode of path ("" when it is missing).
func fileID(path string) string {
	var st syscall.Stat_t
	if path == "" || syscall.Lstat(path, &st) != nil {
		return ""
	}
	return strconv.FormatUint(st.Dev, 10) + ":" + strconv.FormatUint(st.Ino, 10)
}

// madeID is fileID and when path was made (its birth time, else its
// change time): a file removed and made again often gets the inode number
// back, and a holder's mount over the old one would leave the new one
// shown ("" when it is missing).
func madeID(path string) string {
	var st unix.Statx_t
	if path == "" || unix.Statx(unix.AT_FDCWD, path, unix.AT_SYMLINK_NOFOLLOW, unix.STATX_INO|unix.STATX_BTIME|unix.STATX_CTIME, &st) != nil {
		return ""
	}
	t := st.Ctime
	if st.Mask&unix.STATX_BTIME != 0 {
		t = st.Btime
	}
	id := strconv.FormatUint(uint64(unix.Mkdev(st.Dev_major, st.Dev_minor)), 10) + ":" + strconv.FormatUint(st.Ino, 10)
	return id + "@" + strconv.FormatInt(t.Sec, 10) + "." + strconv.FormatUint(uint64(t.Nsec), 10)
}

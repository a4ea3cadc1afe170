package sandbox

import (
	"strconv"
	"syscall"
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
